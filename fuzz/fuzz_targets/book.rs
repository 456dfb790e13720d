//! Opening books: a book or a typed error; a book that opens answers lookups and its check.
#![no_main]

use connect4_engine::game::{Geometry, Position};
use connect4_engine::solver::book::Book;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(book) = Book::from_bytes(data.to_vec(), None) {
        let _ = book.check();
        if book.geometry() == Geometry::STANDARD {
            let _ = book.analyze(&Position::new(Geometry::STANDARD));
        }
    }
});
