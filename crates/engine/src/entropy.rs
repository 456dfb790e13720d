//! In a browser (`wasm32-unknown-unknown`) the engine draws no entropy: every random choice
//! it makes comes from a seed. getrandom (reached through rand's defaults) needs a source
//! there; this one refuses, so an unseeded draw fails loudly instead of silently pulling in
//! the JavaScript crypto API and its glue.

fn no_entropy(_: &mut [u8]) -> Result<(), getrandom::Error> {
    Err(getrandom::Error::UNSUPPORTED)
}

getrandom::register_custom_getrandom!(no_entropy);
