//! How a failed command is worded: each cause once, the flag that fixes it, and whether it
//! was the command line's own fault (exit status 2).

/// The message printed for a failed command: the error and its causes, each said once
/// (library errors often repeat their source's text in their own), then what to do about it
/// in terms of this command line's flags, which the library does not know.
pub fn describe_error(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let msg = cause.to_string();
        if !text.contains(&msg) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&msg);
        }
    }
    if let Some(hint) = flag_hint(e) {
        text.push_str(" (");
        text.push_str(hint);
        text.push(')');
    }
    text
}

/// Whether an error is the command line's own: a bad agent spec (`level:elo=abc`, an Elo
/// outside the dial's range) or a saved adaptive state that cannot be read. Such errors end
/// with exit status 2, as clap's own usage errors do.
pub fn is_bad_input(e: &anyhow::Error) -> bool {
    use connect4_engine::agents::level::CalibrationError;
    use connect4_engine::agents::{AgentError, StateError};
    use connect4_engine::game::GameError;
    e.chain().any(|c| {
        c.downcast_ref::<StateError>().is_some()
            || matches!(
                c.downcast_ref::<GameError>(),
                Some(
                    GameError::BoardEmpty { .. }
                        | GameError::BoardTooLarge { .. }
                        | GameError::TooWide { .. }
                )
            )
            || c.downcast_ref::<CalibrationError>().is_some()
            || matches!(
                c.downcast_ref::<AgentError>(),
                Some(
                    AgentError::BadValue { .. }
                        | AgentError::MissingKey { .. }
                        | AgentError::UnknownKey { .. }
                        | AgentError::UnknownKind { .. }
                        | AgentError::NotKeyValue { .. }
                        | AgentError::OpenQuote { .. }
                )
            )
    })
}

/// The flag that fixes an error, for errors whose fix is a flag.
fn flag_hint(e: &anyhow::Error) -> Option<&'static str> {
    use connect4_engine::solver::SolverError;
    use connect4_learn::arena::TournamentError;
    use connect4_learn::datasets::label::{GenerateError, LabelFileError};
    e.chain().find_map(|c| {
        if let Some(SolverError::NoMemory { .. }) = c.downcast_ref() {
            Some("try a smaller --tt-mib")
        } else if let Some(TournamentError::NoGames) = c.downcast_ref() {
            Some("--games must be at least 1")
        } else if let Some(GenerateError::PartialExists { .. }) = c.downcast_ref() {
            Some("pass --resume to continue it")
        } else if let Some(LabelFileError::Label(GenerateError::PartialExists { .. })) =
            c.downcast_ref()
        {
            Some("pass --resume to continue it")
        } else {
            None
        }
    })
}
