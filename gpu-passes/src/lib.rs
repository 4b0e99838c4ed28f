//! The GPU passes: from a kernel to sequential programs the VC engine proves, and the driver
//! that runs them (`driver`, the one place where the pipeline is assembled).

pub mod bodies;
pub mod driver;
pub mod gpuverify_bpl;
pub mod interleaving;
pub mod invariants;
pub mod kernel_args;
pub mod lockstep;
pub mod mutate;
pub mod predication;
pub mod preprocess;
pub mod replay;
pub mod sizes;
pub mod sort_order;
pub mod termination;
pub mod two_thread;
pub mod uniformity;
pub mod vacuity;
