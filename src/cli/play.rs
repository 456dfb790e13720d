//! `c4 play`: a person against an agent, in a terminal UI or (with `--plain`) line by line.

use super::BoardArgs;
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use connect4_engine::agents::{AdaptiveState, AgentKind, AgentSpec};
use connect4_engine::game::{Outcome, Player, Position};
use connect4_engine::solver::Solver;
use connect4_learn::arena::Session;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum First {
    Human,
    Agent,
    Random,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The opponent, as an agent spec (see `c4 tournament --help`).
    #[arg(long, default_value = "hard", long_help = super::agents_long_help("The opponent, as an agent spec."))]
    agent: String,
    /// Who moves first.
    #[arg(long, value_enum, default_value_t = First::Random)]
    first: First,
    /// Line mode: read column numbers from stdin and print the board as text (for scripts;
    /// also used when stdout is not a terminal).
    #[arg(long)]
    plain: bool,
    /// Seed for the first-player draw and random agents (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// With `--agent adaptive`: the file that keeps its estimate of your Elo between games.
    /// Read when it exists (a file that is not a saved state is refused), written when the
    /// game ends.
    #[arg(long)]
    state: Option<PathBuf>,
    #[command(flatten)]
    board: BoardArgs,
}

pub fn run(a: PlayArgs, book: super::BookChoice) -> Result<()> {
    let geom = a.board.geometry()?;
    if geom.width() > 9 {
        bail!("c4 play reads columns as single digits, so boards up to 9 columns wide");
    }
    let spec: AgentSpec = super::parse_agent(&a.agent)?;
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let human = match a.first {
        First::Human => Player::First,
        First::Agent => Player::Second,
        First::Random => {
            if rng.r#gen::<bool>() {
                Player::First
            } else {
                Player::Second
            }
        }
    };
    let factory = spec.factory_with_book(geom, book.clone())?;
    let agent_seed = rng.r#gen();
    let saved = match &a.state {
        None => None,
        Some(path) => Some(read_state(path, &factory)?),
    };
    let agent: Box<dyn connect4_engine::agents::Agent> = match &saved {
        Some(state) => Box::new(factory.build_adaptive(agent_seed, state.clone())?),
        None => factory.build(agent_seed)?,
    };
    if let Some(state) = &saved {
        println!(
            "The adaptive agent rates you at {:.0} Elo ({} so far).",
            state.estimate(connect4_engine::agents::level::Calibration::builtin(), None),
            games(state.games)
        );
    }
    let session = Session::new(geom, human, agent);
    let mut solver = Solver::with_table_mib(geom, 64)?;
    solver.set_book(book);
    let session = if a.plain || !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal()
    {
        plain(session, solver)?
    } else {
        tui::run(session, solver)?
    };
    if let (Some(path), Some(state)) = (&a.state, saved) {
        save_state(path, &factory, agent_seed, state, &session)?;
    }
    Ok(())
}

/// The saved state of an adaptive agent: the file's, or a fresh one at the spec's start
/// when there is no file yet.
fn read_state(
    path: &std::path::Path,
    factory: &connect4_engine::agents::AgentFactory,
) -> Result<AdaptiveState> {
    let AgentKind::Adaptive { start, .. } = factory.spec().kind() else {
        bail!(
            "--state keeps an adaptive agent's estimate; '{}' is not adaptive",
            factory.spec().label()
        );
    };
    if !path.exists() {
        return Ok(AdaptiveState::new(*start));
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the saved state {}", path.display()))?;
    AdaptiveState::from_json(&text).with_context(|| format!("the saved state {}", path.display()))
}

/// After a finished game: the agent's state with the game read into it, written to `path`.
fn save_state(
    path: &std::path::Path,
    factory: &connect4_engine::agents::AgentFactory,
    seed: u64,
    state: AdaptiveState,
    session: &Session,
) -> Result<()> {
    if session.outcome() == Outcome::Ongoing {
        println!(
            "The game is unfinished: {} is left as it was.",
            path.display()
        );
        return Ok(());
    }
    let mut agent = factory.build_adaptive(seed, state)?;
    let start = Position::new(session.position().geometry());
    agent.replay(start, session.moves(), session.human().other());
    let state = agent.state();
    connect4_engine::io::write_atomic(path, |w| w.write_all(state.to_json().as_bytes()))
        .with_context(|| format!("cannot write {}", path.display()))?;
    println!(
        "The adaptive agent now rates you at {:.0} Elo after {}; saved in {}.",
        agent.estimate(),
        games(state.games),
        path.display()
    );
    Ok(())
}

/// "1 game", "2 games".
fn games(n: u64) -> String {
    if n == 1 {
        "1 game".into()
    } else {
        format!("{n} games")
    }
}

/// The board as text: column numbers under it, the last move in capitals.
fn board_text(pos: &Position, last: Option<usize>) -> String {
    let (w, h) = (pos.width(), pos.height());
    let last_cell = last.map(|c| (c, pos.column_height(c) - 1));
    let mut s = String::new();
    for row in (0..h).rev() {
        s.push('|');
        for col in 0..w {
            let ch = match pos.cell(col, row) {
                None => '.',
                Some(p) if last_cell == Some((col, row)) => p.symbol().to_ascii_uppercase(),
                Some(p) => p.symbol(),
            };
            s.push(' ');
            s.push(ch);
        }
        s.push_str(" |\n");
    }
    s.push('+');
    s.push_str(&"--".repeat(w));
    s.push_str("-+\n ");
    for col in 0..w {
        s.push_str(&format!(" {}", col + 1));
    }
    s.push('\n');
    s
}

fn result_text(session: &Session) -> Option<String> {
    match session.outcome() {
        Outcome::Ongoing => None,
        Outcome::Draw => Some("Draw: the board is full.".into()),
        Outcome::Won(p) if p == session.human() => Some(format!("You win ({})!", p.symbol())),
        Outcome::Won(p) => Some(format!("{} wins ({}).", session.agent_name(), p.symbol())),
    }
}

fn hint_text(session: &Session, solver: &mut Solver) -> String {
    match session.hint(solver) {
        Err(e) => format!("No hint: {e}."),
        Ok(scores) => {
            let cells: Vec<String> = scores
                .iter()
                .enumerate()
                .map(|(c, s)| match s {
                    Some(s) => format!("{}:{s:+}", c + 1),
                    None => format!("{}:-", c + 1),
                })
                .collect();
            format!(
                "Solver scores per column (positive wins, 0 draws, negative loses; larger is faster): {}",
                cells.join(" ")
            )
        }
    }
}

fn plain(mut session: Session, mut solver: Solver) -> Result<Session> {
    let width = session.position().width();
    let mut out = std::io::stdout().lock();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    writeln!(
        out,
        "You play {} ({}) against {}. Enter a column 1-{width}, u to undo, ? for a hint, q to quit.",
        session.human().symbol(),
        if session.human() == Player::First {
            "first"
        } else {
            "second"
        },
        session.agent_name()
    )?;
    loop {
        if let Some(r) = result_text(&session) {
            write!(
                out,
                "{}",
                board_text(&session.position(), session.moves().last().copied())
            )?;
            writeln!(out, "{r}")?;
            return Ok(session);
        }
        if !session.is_human_turn() {
            if let Some(c) = session.play_agent() {
                writeln!(out, "{} plays {}", session.agent_name(), c + 1)?;
            }
            continue;
        }
        write!(
            out,
            "{}",
            board_text(&session.position(), session.moves().last().copied())
        )?;
        write!(out, "Your move ({})> ", session.human().symbol())?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out, "\nInput ended; game left unfinished.")?;
            return Ok(session);
        };
        let line = line?;
        let cmd = line.trim();
        match cmd {
            "q" | "quit" => {
                writeln!(out, "Bye.")?;
                return Ok(session);
            }
            "u" | "undo" => {
                if session.undo() {
                    writeln!(out, "Took back your last move.")?;
                } else {
                    writeln!(out, "Nothing to undo.")?;
                }
            }
            "?" | "hint" => writeln!(out, "{}", hint_text(&session, &mut solver))?,
            _ => match cmd.parse::<usize>() {
                Ok(c) if (1..=width).contains(&c) => {
                    if let Err(e) = session.play_human(c - 1) {
                        writeln!(out, "Illegal move: {e}. Try again.")?;
                    }
                }
                Ok(c) => writeln!(
                    out,
                    "Column {c} is not on the board (1-{width}). Try again."
                )?,
                Err(_) => writeln!(
                    out,
                    "'{cmd}' is not a column number (1-{width}), u, ? or q. Try again."
                )?,
            },
        }
    }
}

mod tui {
    use super::{hint_text, result_text};
    use anyhow::Result;
    use connect4_engine::game::Player;
    use connect4_engine::solver::Solver;
    use connect4_learn::arena::Session;
    use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
    use ratatui::layout::{Constraint, Layout};
    use ratatui::style::{Color, Modifier, Style};
    use ratatui::text::{Line, Span};
    use ratatui::widgets::{Block, Paragraph, Wrap};
    use ratatui::{DefaultTerminal, Frame};

    struct App {
        session: Session,
        solver: Solver,
        cursor: usize,
        message: String,
    }

    pub fn run(session: Session, solver: Solver) -> Result<Session> {
        let mut terminal = ratatui::try_init()?;
        let width = session.position().width();
        let mut app = App {
            session,
            solver,
            cursor: width / 2,
            message: String::new(),
        };
        let r = app.main_loop(&mut terminal);
        ratatui::try_restore()?;
        r.map(|()| app.session)
    }

    fn stone(p: Player) -> Style {
        match p {
            Player::First => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            Player::Second => Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        }
    }

    impl App {
        fn main_loop(&mut self, terminal: &mut DefaultTerminal) -> Result<()> {
            loop {
                if !self.session.is_human_turn() && result_text(&self.session).is_none() {
                    self.message = format!("{} is thinking...", self.session.agent_name());
                    terminal.draw(|f| self.draw(f))?;
                    if let Some(c) = self.session.play_agent() {
                        self.message = format!("{} played {}.", self.session.agent_name(), c + 1);
                    }
                    continue;
                }
                terminal.draw(|f| self.draw(f))?;
                let Event::Key(key) = event::read()? else {
                    continue;
                };
                if key.kind != KeyEventKind::Press {
                    continue;
                }
                let width = self.session.position().width();
                match key.code {
                    KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
                    KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
                    KeyCode::Right => self.cursor = (self.cursor + 1).min(width - 1),
                    KeyCode::Char('u') => {
                        self.message = if self.session.undo() {
                            "Took back your last move.".into()
                        } else {
                            "Nothing to undo.".into()
                        };
                    }
                    KeyCode::Char('?') => {
                        self.message = hint_text(&self.session, &mut self.solver);
                    }
                    KeyCode::Enter | KeyCode::Char(' ') => self.play(self.cursor),
                    KeyCode::Char(c) if c.is_ascii_digit() => {
                        let n = c as usize - '0' as usize;
                        if (1..=width).contains(&n) {
                            self.cursor = n - 1;
                            self.play(n - 1);
                        } else {
                            self.message = format!("Column {n} is not on the board (1-{width}).");
                        }
                    }
                    _ => {}
                }
            }
        }

        fn play(&mut self, col: usize) {
            if result_text(&self.session).is_some() {
                self.message = "The game is over: u to undo, q to quit.".into();
                return;
            }
            if let Err(e) = self.session.play_human(col) {
                self.message = format!("Illegal move: {e}.");
            } else {
                self.message.clear();
            }
        }

        fn draw(&self, f: &mut Frame) {
            let pos = self.session.position();
            let (w, h) = (pos.width(), pos.height());
            let last = self
                .session
                .moves()
                .last()
                .map(|&c| (c, pos.column_height(c) - 1));
            let mut lines = Vec::new();
            let mut marker = vec![Span::raw(" ")];
            for c in 0..w {
                marker.push(Span::raw(if c == self.cursor { " v " } else { "   " }));
            }
            lines.push(Line::from(marker));
            for row in (0..h).rev() {
                let mut spans = vec![Span::raw("|")];
                for col in 0..w {
                    let span = match pos.cell(col, row) {
                        None => Span::raw(" . "),
                        Some(p) => {
                            let mut style = stone(p);
                            if last == Some((col, row)) {
                                style = style.add_modifier(Modifier::REVERSED);
                            }
                            Span::styled(
                                format!(" {} ", if p == Player::First { 'X' } else { 'O' }),
                                style,
                            )
                        }
                    };
                    spans.push(span);
                }
                spans.push(Span::raw("|"));
                lines.push(Line::from(spans));
            }
            lines.push(Line::raw(format!("+{}+", "-".repeat(3 * w))));
            let numbers: String = (1..=w).map(|c| format!(" {c} ")).collect();
            lines.push(Line::raw(format!(" {numbers}")));
            let status = match result_text(&self.session) {
                Some(r) => r,
                None if self.session.is_human_turn() => {
                    format!(
                        "Your turn ({}).",
                        self.session.human().symbol().to_ascii_uppercase()
                    )
                }
                None => format!("{} to move.", self.session.agent_name()),
            };
            let [title, board, info, help] = Layout::vertical([
                Constraint::Length(1),
                Constraint::Length(h as u16 + 4),
                Constraint::Min(3),
                Constraint::Length(1),
            ])
            .areas(f.area());
            f.render_widget(
                Line::from(format!(
                    "Connect Four: you ({}) against {}",
                    self.session.human().symbol().to_ascii_uppercase(),
                    self.session.agent_name()
                ))
                .style(Style::new().add_modifier(Modifier::BOLD)),
                title,
            );
            f.render_widget(Paragraph::new(lines), board);
            f.render_widget(
                Paragraph::new(vec![Line::raw(status), Line::raw(self.message.clone())])
                    .wrap(Wrap { trim: true })
                    .block(Block::bordered()),
                info,
            );
            f.render_widget(
                Line::raw(format!(
                    "1-{w} or <- -> Enter: play   u: undo   ?: hint   q: quit"
                )),
                help,
            );
        }
    }
}
