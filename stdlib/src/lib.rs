//! The `.kbpl` prelude sources bundled with kivl.
