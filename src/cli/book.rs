//! The opening book a run reads: `--book`, the default or none, and its damage reported
//! once the command is done.

use anyhow::Result;

/// An error naming the book's file and its damage when a lookup found any.
pub(crate) fn book_sound(book: &BookChoice) -> Result<()> {
    match book
        .as_deref()
        .and_then(connect4_engine::solver::book::Book::damage)
    {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// The opening book of a run, handed to every command that answers exactly (`None`: none).
pub(crate) type BookChoice = Option<std::sync::Arc<connect4_engine::solver::book::Book>>;

/// The opening book of this run: the file `--book` names (which must load), else the default
/// (a book file beside the binary or in data/, else the built-in 7x6 book); none with
/// `--no-book`.
pub(super) fn choose_book(path: Option<&std::path::Path>, none: bool) -> Result<BookChoice> {
    use connect4_engine::solver::book::{self, Book};
    if none {
        return Ok(None);
    }
    let Some(path) = path else {
        let (found, passed) = book::default_book_reporting();
        for e in passed {
            eprintln!("c4: {e}; passed over");
        }
        return Ok(Some(found));
    };
    let loaded = Book::load(path, None)
        .map_err(|e| anyhow::anyhow!("{e} (--no-book runs without a book)"))?;
    Ok(Some(std::sync::Arc::new(loaded)))
}
