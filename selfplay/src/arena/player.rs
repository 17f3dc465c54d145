//! [`ArenaPlayer`]: a loaded contestant, and how a match sees it ([`Kind`]).

use std::path::Path;
use std::sync::Mutex;

use games::{State, Variant};

use super::ArenaError;
use super::spec::{LeafValues, PlayerSpec};
use classical::alphabeta::{AlphaBetaLimits, MAX_DEPTH};
use classical::leaf_heuristic::HeuristicMix;
use engine::EngineClient;
use search::{BoxedEvaluator, DrawScore};

/// Reads a checkpoint directory into an evaluator that scores the network's draw probability
/// with the given draw score; the error is a message saying why it could not.
pub type LoadCheckpoint<'a, V> =
    dyn FnMut(&Path, DrawScore) -> Result<BoxedEvaluator<State<V>>, String> + 'a;

impl LeafValues {
    /// A checkpoint's `network` evaluator with its leaf values taken as these say: as it is,
    /// or wrapped in a [`HeuristicMix`].
    pub fn apply<V: Variant>(self, network: BoxedEvaluator<State<V>>) -> BoxedEvaluator<State<V>> {
        match self {
            LeafValues::Network => network,
            LeafValues::Heuristic { weight, judge } => {
                Box::new(HeuristicMix::<V, _>::new(network, weight, judge))
            }
        }
    }
}

/// A contestant ready to play variant `V`.
pub enum ArenaPlayer<V: Variant> {
    /// MCTS guided by a network, `sims` simulations per searched decision, draws worth `draw`
    /// (the evaluator scores the network's draw probability the same way).
    Network { evaluator: BoxedEvaluator<State<V>>, sims: u32, draw: DrawScore },
    /// MCTS with a uniform prior and random-rollout values, `sims` simulations, playouts cut
    /// after `cutoff` moves (scored by the heuristic) when given.
    Mcts { sims: u32, cutoff: Option<u32> },
    /// Classical alpha-beta search ([`classical::alphabeta`]).
    AlphaBeta(AlphaBetaLimits),
    /// A uniformly random legal move.
    Random,
    /// One-ply greedy ([`classical::greedy`]).
    Greedy,
    /// An external engine process (asked for one move at a time; games in flight take turns).
    Engine(Mutex<EngineClient>),
}

/// What a game in flight needs to know about a player (no evaluator).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Searches with `sims` simulations, its leaves evaluated as `leaves` says. Drawn end
    /// positions in its tree are worth `draw`.
    Search {
        sims: u32,
        leaves: Leaves,
        draw: DrawScore,
    },
    Random,
    Greedy,
    /// Searches with alpha-beta inside the game.
    AlphaBeta(AlphaBetaLimits),
    /// Asks its external engine for each move; the referee checks it.
    Engine,
}

/// How a searching player's leaves are evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaves {
    /// By the player's network, batched across games.
    Network,
    /// By a random playout inside the game, cut after `cutoff` moves and scored by the
    /// heuristic when given (else played to the match's playout cap, a draw if cut there).
    Rollouts { cutoff: Option<u32> },
}

impl<V: Variant> ArenaPlayer<V> {
    /// Builds the player of `spec` (its clock, if any, is the match's: [`super::MatchConfig::clocks`]). A checkpoint is checked to be a directory, then handed to
    /// `load` with the spec's draw score (which reads it into an evaluator scoring the network's
    /// draw probability that way; its error message is kept).
    pub fn from_spec(
        spec: &PlayerSpec,
        load: &mut LoadCheckpoint<'_, V>,
    ) -> Result<Self, ArenaError> {
        Ok(match spec {
            PlayerSpec::Checkpoint { dir, sims, draw, values, .. } => {
                if !dir.is_dir() {
                    return Err(ArenaError::MissingCheckpoint(dir.clone()));
                }
                let network = load(dir, *draw)
                    .map_err(|message| ArenaError::Load { dir: dir.clone(), message })?;
                ArenaPlayer::Network { evaluator: values.apply(network), sims: *sims, draw: *draw }
            }
            PlayerSpec::Mcts { sims, cutoff, .. } => {
                ArenaPlayer::Mcts { sims: *sims, cutoff: *cutoff }
            }
            PlayerSpec::AlphaBeta { depth, ms, .. } => ArenaPlayer::AlphaBeta(AlphaBetaLimits {
                depth: depth.unwrap_or(MAX_DEPTH),
                time: ms.map(|t| std::time::Duration::from_millis(u64::from(t))),
            }),
            PlayerSpec::Random => ArenaPlayer::Random,
            PlayerSpec::Greedy => ArenaPlayer::Greedy,
            PlayerSpec::Engine { command, .. } => {
                ArenaPlayer::Engine(Mutex::new(EngineClient::start(command)?))
            }
        })
    }

    /// How games in flight treat this player.
    pub fn kind(&self) -> Kind {
        match self {
            ArenaPlayer::Network { sims, draw, .. } => {
                Kind::Search { sims: *sims, leaves: Leaves::Network, draw: *draw }
            }
            ArenaPlayer::Mcts { sims, cutoff } => Kind::Search {
                sims: *sims,
                leaves: Leaves::Rollouts { cutoff: *cutoff },
                draw: DrawScore::Share,
            },
            ArenaPlayer::AlphaBeta(limits) => Kind::AlphaBeta(*limits),
            ArenaPlayer::Random => Kind::Random,
            ArenaPlayer::Greedy => Kind::Greedy,
            ArenaPlayer::Engine(_) => Kind::Engine,
        }
    }

    /// The network evaluator of a network player, and the process of an engine player.
    pub fn parts(
        &mut self,
    ) -> (Option<&mut BoxedEvaluator<State<V>>>, Option<&Mutex<EngineClient>>) {
        match self {
            ArenaPlayer::Network { evaluator, .. } => (Some(evaluator), None),
            ArenaPlayer::Engine(client) => (None, Some(client)),
            _ => (None, None),
        }
    }
}

impl<V: Variant> std::fmt::Debug for ArenaPlayer<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::CamelotRules;
    use search::UniformEvaluator;

    fn uniform(_: &Path, _: DrawScore) -> Result<BoxedEvaluator<State<CamelotRules>>, String> {
        Ok(Box::new(UniformEvaluator))
    }

    /// A directory that exists, written so that a spec reads it as a checkpoint (with a `/`).
    fn existing_dir() -> String {
        let here = std::env::temp_dir().display().to_string();
        if here.contains('/') { here } else { format!("./{here}") }
    }

    #[test]
    fn specs_become_players_and_a_missing_checkpoint_is_reported_when_loading() {
        let build = |s: &str| {
            ArenaPlayer::<CamelotRules>::from_spec(&s.parse().unwrap(), &mut uniform)
                .map(|p| p.kind())
        };
        assert_eq!(build("random").unwrap(), Kind::Random);
        assert_eq!(build("greedy").unwrap(), Kind::Greedy);
        let share = DrawScore::Share;
        let mcts = Kind::Search { sims: 5, leaves: Leaves::Rollouts { cutoff: None }, draw: share };
        assert_eq!(build("mcts:sims=5").unwrap(), mcts);
        let cut =
            Kind::Search { sims: 5, leaves: Leaves::Rollouts { cutoff: Some(8) }, draw: share };
        assert_eq!(build("mcts:sims=5,cutoff=8").unwrap(), cut);
        let limits = AlphaBetaLimits { depth: 3, time: None };
        assert_eq!(build("alphabeta:depth=3").unwrap(), Kind::AlphaBeta(limits));
        let timed =
            AlphaBetaLimits { depth: MAX_DEPTH, time: Some(std::time::Duration::from_millis(20)) };
        assert_eq!(build("alphabeta:ms=20").unwrap(), Kind::AlphaBeta(timed));
        let missing = "no/such/gen-0001:sims=3";
        assert!(missing.parse::<PlayerSpec>().is_ok(), "parsing does not look at the disk");
        let Err(ArenaError::MissingCheckpoint(dir)) = build(missing) else { panic!("loaded") };
        assert_eq!(dir, Path::new("no/such/gen-0001"));
        let here = format!("{}:sims=7", existing_dir());
        assert_eq!(
            build(&here).unwrap(),
            Kind::Search { sims: 7, leaves: Leaves::Network, draw: share }
        );
        // The draw score reaches both the loader (for the network's draw class) and the search.
        let mut asked = None;
        let spec: PlayerSpec = format!("{here},draw=0.25").parse().unwrap();
        let player = ArenaPlayer::<CamelotRules>::from_spec(&spec, &mut |_, draw| {
            asked = Some(draw);
            Ok(Box::new(UniformEvaluator))
        })
        .unwrap();
        let contempt = DrawScore::Fixed(0.25);
        assert_eq!(asked, Some(contempt));
        assert_eq!(
            player.kind(),
            Kind::Search { sims: 7, leaves: Leaves::Network, draw: contempt }
        );
        let spec: PlayerSpec = here.parse().unwrap();
        let err = ArenaPlayer::<CamelotRules>::from_spec(&spec, &mut |_, _| Err("broken".into()))
            .unwrap_err();
        assert!(err.to_string().contains("broken"), "{err}");
    }

    #[test]
    fn heuristic_leaf_values_replace_or_mix_the_network_s() {
        use classical::heuristic::Heuristic;
        use games::Camelot;
        let here = existing_dir();
        // White a Man up: the heuristic favours White, the uniform evaluator says a draw.
        let state: Camelot = "camelot W W:KA4,ME4,MF7 B:KA13,ML13 cm=0,0".parse().unwrap();
        let value = |spec: &str| {
            let spec: PlayerSpec = format!("{here}:sims=4{spec}").parse().unwrap();
            let mut player = ArenaPlayer::<CamelotRules>::from_spec(&spec, &mut uniform).unwrap();
            let (Some(evaluator), _) = player.parts() else { panic!("a network player") };
            evaluator.evaluate(std::slice::from_ref(&state)).remove(0).values.0[0]
        };
        let network = value("");
        assert_eq!(network, 0.5, "the uniform evaluator's draw");
        let heuristic =
            Heuristic::new::<CamelotRules>().board_values::<CamelotRules>(state.board());
        assert!(heuristic.0[0] > 0.6, "{heuristic:?}");
        assert!((value(",heuristic=1") - heuristic.0[0]).abs() < 1e-6);
        let half = 0.5 * network + 0.5 * heuristic.0[0];
        assert!((value(",heuristic=0.5") - half).abs() < 1e-6);
        // Judged after the pending captures: nothing is pending here, so the same score.
        assert!((value(",heuristic=1,judge=quiescence") - heuristic.0[0]).abs() < 1e-3);
    }
}
