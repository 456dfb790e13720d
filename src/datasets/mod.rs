//! The learning crate's data files ([`connect4_learn::datasets`], re-exported whole), and the
//! one part that needs the network: downloading the UCI archive ([`fetch`]).

pub use connect4_learn::datasets::*;

pub mod fetch;
