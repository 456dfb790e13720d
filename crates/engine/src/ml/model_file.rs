//! GBT models on disk: the model file format of [`crate::io::model_format`] with a GBT body, plus the
//! checks that only make sense for a GBT (the feature set exists and has the model's width).

use super::gbt::{GbtModel, GbtModelData, GbtModelError};
use super::ntuple::{NTupleData, NTupleNetwork, PackedNTupleData};
use crate::features::FeatureSet;
use crate::game::{BitBoard, Geometry};
use crate::io::model_format::{
    Expect, ModelFileError, ModelHeader, ModelKind, ModelParts, TrainingMeta, read_bytes,
    save_model,
};
use std::path::Path;

/// Why a model file's body, valid as bytes, is not a usable model of its kind.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum ModelBodyError {
    /// The header names a feature set this build does not know.
    #[error(transparent)]
    FeatureSet(#[from] crate::features::UnknownFeatureSet),
    /// The header's board size is not a valid board.
    #[error("board in header: {0}")]
    Board(crate::game::GameError),
    /// The model reads another number of features than its feature set gives.
    #[error("model reads {model} features but feature set {set} has {set_len}")]
    FeatureCount {
        /// Features the model reads.
        model: usize,
        /// The feature set's name.
        set: String,
        /// Features it gives.
        set_len: usize,
    },
    /// The trees do not make a model.
    #[error(transparent)]
    Gbt(#[from] GbtModelError),
    /// Linear weights for other features than this build's.
    #[error("weights are for features {found:?}, expected {expected:?}")]
    LinearFeatures {
        /// Names in the file.
        found: Vec<String>,
        /// Names this build uses.
        expected: Vec<String>,
    },
    /// Not eight weights.
    #[error("{0} weights, expected 8")]
    WeightCount(usize),
    /// A NaN or infinite weight.
    #[error("weight {0} is not finite")]
    NotFinite(f64),
    /// An n-tuple network whose parts do not fit.
    #[error(transparent)]
    NTuple(crate::ml::ntuple::NTupleError),
}

/// A loaded GBT model file.
#[derive(Clone, Debug)]
pub struct GbtFile {
    /// The file's header (training metadata included).
    pub header: ModelHeader,
    /// The model.
    pub model: GbtModel,
    /// The features it reads.
    pub features: FeatureSet,
    /// The board it was trained for.
    pub geometry: Geometry,
}

/// Writes `model` (which reads `features` on `geom`) to `path`, atomically.
pub fn save_gbt(
    path: &Path,
    model: &GbtModel,
    features: FeatureSet,
    geom: Geometry,
    meta: TrainingMeta,
) -> Result<(), ModelFileError> {
    let header = ModelHeader {
        kind: ModelKind::Gbt,
        feature_set: features.name().to_string(),
        width: geom.width() as u32,
        height: geom.height() as u32,
        meta,
    };
    save_model(path, &header, model.data())
}

/// Reads a GBT model file; with `board`, also requires that board size.
pub fn load_gbt(path: &Path, board: Option<Geometry>) -> Result<GbtFile, ModelFileError> {
    decode_gbt(path, &read_bytes(path)?, board)
}

/// [`load_gbt`] of a file's bytes held in memory (`path` only names it in errors).
pub fn decode_gbt(
    path: &Path,
    bytes: &[u8],
    board: Option<Geometry>,
) -> Result<GbtFile, ModelFileError> {
    gbt_from_parts(&ModelParts::open(path, bytes)?, board)
}

fn expect<B: BitBoard>(
    kind: ModelKind,
    feature_set: Option<&str>,
    board: Option<Geometry<B>>,
) -> Expect {
    Expect {
        kind: Some(kind),
        feature_set: feature_set.map(str::to_string),
        board: board.map(|g| (g.width() as u32, g.height() as u32)),
    }
}

fn invalid(path: &Path, e: ModelBodyError) -> ModelFileError {
    ModelFileError::Invalid {
        path: path.to_path_buf(),
        source: Box::new(e),
    }
}

fn gbt_from_parts(parts: &ModelParts, board: Option<Geometry>) -> Result<GbtFile, ModelFileError> {
    parts.check(&expect(ModelKind::Gbt, None, board))?;
    let data: GbtModelData = parts.body()?;
    let header = parts.header.clone();
    let invalid = |e| invalid(parts.path(), e);
    let features: FeatureSet = header
        .feature_set
        .parse()
        .map_err(|e| invalid(ModelBodyError::FeatureSet(e)))?;
    let geometry = Geometry::new(header.width as usize, header.height as usize)
        .map_err(|e| invalid(ModelBodyError::Board(e)))?;
    if features.len(geometry) != data.n_features {
        return Err(invalid(ModelBodyError::FeatureCount {
            model: data.n_features,
            set: features.to_string(),
            set_len: features.len(geometry),
        }));
    }
    let model = GbtModel::from_data(data).map_err(|e| invalid(e.into()))?;
    Ok(GbtFile {
        header,
        model,
        features,
        geometry,
    })
}

/// The body of a linear model file: the evaluator's weights with the names of the features
/// they multiply (the [`crate::features::LINEAR8_NAMES`] order: first player's value, then
/// the second's; the value is from the first player's side and negated when the second
/// player is to move).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct LinearModelData {
    /// Feature names, one per weight.
    pub features: Vec<String>,
    /// The weights.
    pub weights: Vec<f64>,
}

/// The feature-set name written in linear model headers.
pub(crate) const LINEAR_FEATURE_SET: &str = "linear8";

/// A loaded linear model file.
#[derive(Clone, Debug)]
pub struct LinearFile {
    /// The file's header.
    pub header: ModelHeader,
    /// The eight weights in [`crate::features::LINEAR8_NAMES`] order.
    pub weights: [f64; 8],
}

/// Writes linear evaluator `weights` for boards of `geom` to `path`, atomically.
pub fn save_linear(
    path: &Path,
    weights: [f64; 8],
    geom: Geometry,
    meta: TrainingMeta,
) -> Result<(), ModelFileError> {
    let header = ModelHeader {
        kind: ModelKind::Linear,
        feature_set: LINEAR_FEATURE_SET.to_string(),
        width: geom.width() as u32,
        height: geom.height() as u32,
        meta,
    };
    let body = LinearModelData {
        features: crate::features::LINEAR8_NAMES
            .iter()
            .map(|s| s.to_string())
            .collect(),
        weights: weights.to_vec(),
    };
    save_model(path, &header, &body)
}

/// Reads a linear model file (`c4 train lms`); with `board`, also requires that board size.
/// The file must name the eight linear features in the order this build uses, with finite
/// weights.
pub fn load_linear(path: &Path, board: Option<Geometry>) -> Result<LinearFile, ModelFileError> {
    decode_linear(path, &read_bytes(path)?, board)
}

/// [`load_linear`] of a file already in memory (`path` names it in errors).
pub(crate) fn decode_linear(
    path: &Path,
    bytes: &[u8],
    board: Option<Geometry>,
) -> Result<LinearFile, ModelFileError> {
    linear_from_parts(&ModelParts::open(path, bytes)?, board)
}

fn linear_from_parts(
    parts: &ModelParts,
    board: Option<Geometry>,
) -> Result<LinearFile, ModelFileError> {
    parts.check(&expect(ModelKind::Linear, Some(LINEAR_FEATURE_SET), board))?;
    let data: LinearModelData = parts.body()?;
    let header = parts.header.clone();
    let invalid = |e| invalid(parts.path(), e);
    if data.features != crate::features::LINEAR8_NAMES {
        return Err(invalid(ModelBodyError::LinearFeatures {
            found: data.features.clone(),
            expected: crate::features::LINEAR8_NAMES
                .iter()
                .map(|s| s.to_string())
                .collect(),
        }));
    }
    let weights: [f64; 8] = data
        .weights
        .as_slice()
        .try_into()
        .map_err(|_| invalid(ModelBodyError::WeightCount(data.weights.len())))?;
    if let Some(&w) = weights.iter().find(|w| !w.is_finite()) {
        return Err(invalid(ModelBodyError::NotFinite(w)));
    }
    Ok(LinearFile { header, weights })
}

/// The feature-set name of n-tuple model files that store every weight (read, no longer
/// written).
pub(crate) const NTUPLE_FEATURE_SET: &str = "ntuple";

/// The feature-set name of n-tuple model files that store only the weights of patterns
/// that can occur ([`crate::ml::ntuple::PackedNTupleData`]).
pub(crate) const NTUPLE_PACKED_FEATURE_SET: &str = "ntuple-packed";

/// A loaded n-tuple network file.
#[derive(Clone, Debug)]
pub struct NTupleFile {
    /// The file's header.
    pub header: ModelHeader,
    /// The network.
    pub network: NTupleNetwork,
}

/// Writes `net` (of a board in any integer) to `path`, atomically.
pub fn save_ntuple<B: BitBoard>(
    path: &Path,
    net: &NTupleNetwork<B>,
    meta: TrainingMeta,
) -> Result<(), ModelFileError> {
    let geom = net.geometry();
    let header = ModelHeader {
        kind: ModelKind::NTuple,
        feature_set: NTUPLE_PACKED_FEATURE_SET.to_string(),
        width: geom.width() as u32,
        height: geom.height() as u32,
        meta,
    };
    let packed = net
        .packed()
        .map_err(|e| invalid(path, ModelBodyError::NTuple(e)))?;
    save_model(path, &header, &packed)
}

/// Reads an n-tuple network file (`c4 train ntuple`); with `board`, also requires that
/// board size.
pub fn load_ntuple(path: &Path, board: Option<Geometry>) -> Result<NTupleFile, ModelFileError> {
    decode_ntuple(path, &read_bytes(path)?, board)
}

/// Reads an n-tuple network file for boards of `board`, in the board's integer: how a
/// network for a board past 64 bits (8x8, 9x7) is read. A file for another board is an
/// error naming both.
pub fn load_ntuple_on<B: BitBoard>(
    path: &Path,
    board: Geometry<B>,
) -> Result<NTupleNetwork<B>, ModelFileError> {
    decode_ntuple_on(path, &read_bytes(path)?, board)
}

/// [`load_ntuple_on`] of a file already in memory (`path` names it in errors).
pub(crate) fn decode_ntuple_on<B: BitBoard>(
    path: &Path,
    bytes: &[u8],
    board: Geometry<B>,
) -> Result<NTupleNetwork<B>, ModelFileError> {
    Ok(ntuple_from_parts(&ModelParts::open(path, bytes)?, Some(board))?.1)
}

/// [`load_ntuple`] of a file already in memory (`path` names it in errors).
pub(crate) fn decode_ntuple(
    path: &Path,
    bytes: &[u8],
    board: Option<Geometry>,
) -> Result<NTupleFile, ModelFileError> {
    let (header, network) = ntuple_from_parts(&ModelParts::open(path, bytes)?, board)?;
    Ok(NTupleFile { header, network })
}

fn ntuple_from_parts<B: BitBoard>(
    parts: &ModelParts,
    board: Option<Geometry<B>>,
) -> Result<(ModelHeader, NTupleNetwork<B>), ModelFileError> {
    let packed = parts.header.feature_set == NTUPLE_PACKED_FEATURE_SET;
    let set = if packed {
        NTUPLE_PACKED_FEATURE_SET
    } else {
        NTUPLE_FEATURE_SET
    };
    parts.check(&expect(ModelKind::NTuple, Some(set), board))?;
    let header = parts.header.clone();
    let invalid = |e| invalid(parts.path(), e);
    let geometry = Geometry::<B>::sized(header.width as usize, header.height as usize)
        .map_err(|e| invalid(ModelBodyError::Board(e)))?;
    let network = if packed {
        NTupleNetwork::from_packed(geometry, parts.body::<PackedNTupleData>()?)
    } else {
        NTupleNetwork::from_data(geometry, parts.body::<NTupleData>()?)
    }
    .map_err(|e| invalid(ModelBodyError::NTuple(e)))?;
    Ok((header, network))
}

/// Any model file this build reads, as the kind its header names.
#[derive(Clone, Debug)]
pub enum ModelFile {
    /// Gradient-boosted trees (`c4 train gbt`).
    Gbt(Box<GbtFile>),
    /// Linear weights (`c4 train lms`).
    Linear(Box<LinearFile>),
    /// An n-tuple network (`c4 train ntuple`).
    NTuple(Box<NTupleFile>),
}

impl ModelFile {
    /// The file's header.
    pub fn header(&self) -> &ModelHeader {
        match self {
            ModelFile::Gbt(f) => &f.header,
            ModelFile::Linear(f) => &f.header,
            ModelFile::NTuple(f) => &f.header,
        }
    }
}

/// Reads any model file once: the checksum is checked once, and the header's kind picks how
/// the body is decoded. With `board`, the file must be for that board size.
pub fn load_any(path: &Path, board: Option<Geometry>) -> Result<ModelFile, ModelFileError> {
    decode_any(path, &read_bytes(path)?, board)
}

/// [`load_any`] of a file already in memory (`path` names it in errors).
pub fn decode_any(
    path: &Path,
    bytes: &[u8],
    board: Option<Geometry>,
) -> Result<ModelFile, ModelFileError> {
    let parts = ModelParts::open(path, bytes)?;
    Ok(match parts.header.kind {
        ModelKind::Gbt => ModelFile::Gbt(Box::new(gbt_from_parts(&parts, board)?)),
        ModelKind::Linear => ModelFile::Linear(Box::new(linear_from_parts(&parts, board)?)),
        ModelKind::NTuple => {
            let (header, network) = ntuple_from_parts(&parts, board)?;
            ModelFile::NTuple(Box::new(NTupleFile { header, network }))
        }
    })
}
