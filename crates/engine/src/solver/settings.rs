//! A solver's settings: its book, the tables and hints it shares, its interrupt.

use super::{OrderHint, ShallowTable, Solver, book};
use crate::Interrupt;
use crate::game::BitBoard;

impl<B: BitBoard> Solver<B> {
    /// The opening book this solver reads (by default the one built into the library for its
    /// board, see [`book::embedded_for`]); a book for another board reads as that built-in
    /// one; `None` makes it search everything, as for checking the book itself.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// assert!(s.book().is_some()); // the built-in 7x6 book
    /// s.set_book(None);
    /// assert!(s.book().is_none());
    /// let mut small = Solver::with_table_mib(Geometry::new(6, 5).unwrap(), 8).unwrap();
    /// small.set_book(Some(connect4_engine::solver::book::embedded()));
    /// assert_eq!(small.book().unwrap().geometry(), Geometry::new(6, 5).unwrap());
    /// ```
    pub fn set_book(&mut self, book: Option<std::sync::Arc<book::Book>>) {
        self.book = match book {
            Some(b) if Some(b.geometry()) == self.geom.narrow() => Some(b),
            Some(_) => self.geom.narrow().and_then(book::embedded_for),
            None => None,
        };
    }

    /// The opening book this solver reads, if any.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// let empty = Position::new(Geometry::STANDARD);
    /// assert_eq!(s.book().and_then(|b| b.score(&empty)), Some(1));
    /// ```
    pub fn book(&self) -> Option<&book::Book> {
        self.book.as_deref()
    }

    /// Positions with fewer than `plies` stones share table entries with their mirror image.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// s.set_symmetry_plies(0); // no sharing with mirror images: same scores
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// assert_eq!(s.solve(&end), -1);
    /// ```
    pub fn set_symmetry_plies(&mut self, plies: usize) {
        self.symmetry_plies = plies;
    }

    /// Gives positions with fewer stones than the table's limit their own table, which
    /// other solvers may share (see [`ShallowTable`]); `None` removes it.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Position, Solver};
    /// use connect4_engine::solver::ShallowTable;
    /// let shared = ShallowTable::new(Geometry::STANDARD, 16, 8).unwrap();
    /// let (mut a, mut b) = (Solver::with_table_mib(Geometry::STANDARD, 8).unwrap(), Solver::with_table_mib(Geometry::STANDARD, 8).unwrap());
    /// a.set_shallow_table(Some(shared.clone()));
    /// b.set_shallow_table(Some(shared)); // what `a` learns about shallow positions serves `b`
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// assert_eq!(a.solve(&end), b.solve(&end));
    /// ```
    pub fn set_shallow_table(&mut self, table: Option<ShallowTable<B>>) {
        self.shallow = table;
    }

    /// Breaks the ties of the threat ordering in positions with fewer than `hint.plies` stones
    /// by the hint's value of each child (best for us first); `None` removes it. Scores do not
    /// change, only how fast they are found.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Position, Solver};
    /// use connect4_engine::solver::OrderHint;
    /// use std::sync::Arc;
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// // Prefer children with fewer stones in the centre column: scores stay exact.
    /// let value = Arc::new(|p: &Position| -(p.column_height(3) as f64));
    /// s.set_order_hint(Some(OrderHint { plies: OrderHint::DEFAULT_PLIES, value }));
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// assert_eq!(s.solve(&end), -1);
    /// ```
    pub fn set_order_hint(&mut self, hint: Option<OrderHint<B>>) {
        self.hint = hint;
    }

    /// Lets `interrupt` stop searches (polled every 4096 nodes); `None` removes it. A stopped
    /// search stores nothing false in the table: [`Solver::score_bounds`] then returns the
    /// bounds proved so far, and the table keeps what finished, so asking again later goes on
    /// from there.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// use connect4_engine::Interrupt;
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// s.set_book(None);
    /// let stop = Interrupt::new();
    /// stop.cancel();
    /// s.set_interrupt(Some(stop));
    /// let (lo, hi) = s.score_bounds(&Position::from_moves(Geometry::STANDARD, "44").unwrap(), Mode::Strong);
    /// assert!(s.was_interrupted() && lo < hi);
    /// ```
    pub fn set_interrupt(&mut self, interrupt: Option<Interrupt>) {
        self.interrupt = interrupt;
    }

    /// The interrupt searches poll, if any.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// assert!(s.interrupt().is_none());
    /// ```
    pub fn interrupt(&self) -> Option<&Interrupt> {
        self.interrupt.as_ref()
    }

    /// Whether the interrupt stopped the last search (the last score is then only bounds).
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// s.solve(&end);
    /// assert!(!s.was_interrupted());
    /// ```
    pub fn was_interrupted(&self) -> bool {
        self.stopped
    }
}
