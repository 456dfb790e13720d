//! Agent factories kept across requests by spec and board, for the server and the
//! WebAssembly engine: a factory holds its spec's loaded models and, for the dial and the
//! adaptive agent, the judges' memory of the positions they valued, so a page's stateless
//! request that replays a game answers in the time of its last move, not of every move.

use crate::agents::{AgentBoard, AgentError, AgentFactory, AgentKind, AgentSpec, Resources};
use crate::game::Geometry;
use crate::kept::Kept;
use crate::solver::SolverPool;
use std::sync::Arc;

/// Agent factories by spec and board, the most recently used first, at most `capacity` of
/// them (each may hold a model and a judge's solvers). Perfect agents are not kept: they
/// take the caller's solvers, whose tables stay warm anyway.
///
/// ```
/// use connect4_engine::agents::Resources;
/// use connect4_engine::answers::FactoryCache;
/// use connect4_engine::solver::SolverPool;
/// use connect4_engine::Geometry;
/// use std::sync::Arc;
/// let cache = FactoryCache::new(4);
/// let solvers = Arc::new(SolverPool::new(8));
/// let spec = "level:elo=1200".parse().unwrap();
/// let a = cache.get(&spec, Geometry::STANDARD, &Resources::default(), &solvers).unwrap();
/// let b = cache.get(&spec, Geometry::STANDARD, &Resources::default(), &solvers).unwrap();
/// assert!(a.shares_judges_with(&b)); // one factory: the judges' memory carries over
/// assert_eq!(cache.len(), 1);
/// cache.clear(); // resources changed: made again
/// let c = cache.get(&spec, Geometry::STANDARD, &Resources::default(), &solvers).unwrap();
/// assert!(!a.shares_judges_with(&c));
/// ```
pub struct FactoryCache(Kept<(String, (usize, usize))>);

impl FactoryCache {
    /// A cache of at most `capacity` factories.
    pub fn new(capacity: usize) -> FactoryCache {
        FactoryCache(Kept::new(capacity))
    }

    /// The factory of `spec` on boards of `geom`: the kept one, else one made from
    /// `resources` and kept. A perfect agent's factory is made afresh each time, taking
    /// `solvers`.
    pub fn get<B: AgentBoard>(
        &self,
        spec: &AgentSpec,
        geom: Geometry<B>,
        resources: &Resources,
        solvers: &Arc<SolverPool>,
    ) -> Result<AgentFactory<B>, AgentError> {
        if matches!(spec.kind(), AgentKind::Perfect(_)) {
            return Ok(spec
                .factory_on(geom, resources)?
                .with_solvers(Arc::clone(solvers)));
        }
        // A board's size fixes its integer, so the key finds the factory of `B`.
        let key = (spec.to_string(), (geom.width(), geom.height()));
        self.0.get_or(key, || spec.factory_on(geom, resources))
    }

    /// Forgets every factory: what a caller does when its resources change (a model file
    /// or a book replaced), so no agent plays the old one.
    pub fn clear(&self) {
        self.0.clear();
    }

    /// How many factories are kept.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
