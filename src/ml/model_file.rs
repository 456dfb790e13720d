//! GBT models on disk: the model file format of [`crate::io::model`] with a GBT body, plus the
//! checks that only make sense for a GBT (the feature set exists and has the model's width).

use super::gbt::{GbtModel, GbtModelData};
use crate::features::FeatureSet;
use crate::game::Geometry;
use crate::io::model::{
    Expect, ModelFileError, ModelHeader, ModelKind, TrainingMeta, load_model, save_model,
};
use std::path::Path;

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
    let expect = Expect {
        kind: Some(ModelKind::Gbt),
        feature_set: None,
        board: board.map(|g| (g.width() as u32, g.height() as u32)),
    };
    let (header, data): (ModelHeader, GbtModelData) = load_model(path, &expect)?;
    let mismatch = |message: String| ModelFileError::Mismatch {
        path: path.to_path_buf(),
        message,
    };
    let features: FeatureSet = header
        .feature_set
        .parse()
        .map_err(|e| mismatch(format!("{e}")))?;
    let geometry = Geometry::new(header.width as usize, header.height as usize)
        .map_err(|e| mismatch(format!("board in header: {e}")))?;
    if features.len(geometry) != data.n_features {
        return Err(mismatch(format!(
            "model reads {} features but feature set {} has {}",
            data.n_features,
            features,
            features.len(geometry)
        )));
    }
    let model = GbtModel::from_data(data).map_err(mismatch)?;
    Ok(GbtFile {
        header,
        model,
        features,
        geometry,
    })
}
