pub mod interleaving;
pub mod invariants;
pub mod lockstep;
pub mod predication;
pub mod preprocess;
pub mod replay;
pub mod sort_order;
pub mod two_thread;
