//! Move strings, as `c4`, the server, the page and Python read them, on boards of both
//! integers: a position or a typed error, never a panic.
#![no_main]

use connect4_engine::game::{Geometry, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (w, h) in [(7, 6), (4, 4), (9, 6), (5, 4)] {
        if let Ok(g) = Geometry::new(w, h) {
            let _ = Position::from_moves(g, text);
            let _ = connect4_engine::game::moves::parse_moves(text, w);
        }
    }
    let _ = connect4_engine::answers::position_of(text, Some(8), Some(8));
    let _ = connect4_engine::answers::wide_position_of(text, Some(9), Some(7));
});
