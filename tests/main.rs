//! The application's integration tests, one binary (a binary per file linked the whole
//! application once each): each module is one file of this folder.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

mod common;

mod book;
mod browser;
mod cli;
mod crash;
mod data_and_gbt;
mod deploy;
mod docs_examples;
mod evaluate;
mod ntuple;
mod parser_props;
mod pipeline;
mod serve_api;
mod serve_fuzz;
mod slurm;
mod web;
mod yardstick;
