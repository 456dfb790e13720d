//! The one part of the data files that needs the network: downloading the UCI archive
//! ([`fetch`]). The files themselves are the learning crate's ([`connect4_learn::datasets`]).

pub mod fetch;
