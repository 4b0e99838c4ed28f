pub mod sort_order;
pub mod preprocess;
pub mod predication;
pub mod interleaving;
pub mod lockstep;
pub mod invariants;
pub mod two_thread;
pub mod replay;
