//! Agent specs from a page: a model may be named only by a file of one models folder, so a
//! request cannot make a program read any other file.

use super::AnswerError;
use crate::agents::AgentSpec;
use std::path::{Component, Path, PathBuf};

/// Parses `text` and points its model paths into `models`: a spec may name a model by file
/// name (`model:gbt.bin`, `model:gbt`) or by the shipped default (`models/gbt.bin`), never by
/// another path. The error names the spec and, for a path, the rule.
///
/// ```
/// use connect4_engine::answers::spec_in_folder;
/// let s = spec_in_folder("gbt:depth=2", "somewhere".as_ref()).unwrap();
/// assert!(format!("{:?}", s.kind()).contains("somewhere/gbt.bin"));
/// let e = spec_in_folder("model:../x.bin", "somewhere".as_ref()).unwrap_err();
/// assert!(e.to_string().contains("must be a file name in the models folder"));
/// ```
pub fn spec_in_folder(text: &str, models: &Path) -> Result<AgentSpec, AnswerError> {
    let spec: AgentSpec = text.parse()?;
    let bad = std::cell::RefCell::new(None);
    let spec = spec.map_model_paths(|p| match model_file_name(p) {
        Some(name) => models.join(name),
        None => {
            *bad.borrow_mut() = Some(super::short(&p.display().to_string()));
            PathBuf::new()
        }
    });
    match bad.into_inner() {
        Some(path) => Err(AnswerError::ModelPath {
            spec: super::short(text),
            path,
        }),
        None => Ok(spec),
    }
}

/// The file name a spec's model path stands for: `NAME`, `NAME.bin` or `models/NAME.bin`.
fn model_file_name(p: &Path) -> Option<String> {
    let parts: Vec<_> = p.components().collect();
    let name = match parts.as_slice() {
        [Component::Normal(n)] => n,
        [Component::Normal(dir), Component::Normal(n)] if *dir == "models" => n,
        _ => return None,
    };
    let name = name.to_str()?;
    Some(if Path::new(name).extension().is_some() {
        name.to_string()
    } else {
        format!("{name}.bin")
    })
}
