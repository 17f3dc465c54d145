//! A generation's self-play, composed in one place: every hook of `[selfplay]` that shapes what a
//! generation's games teach, around the driver's searches.
//!
//! In order: the classical teacher plays its share of the ids (`selfplay.teacher`, fading by
//! generation); the searches play the rest, their leaves mixed with the heuristic at the
//! generation's weight (`selfplay.leaf_heuristic`), their root priors filtered
//! (`selfplay.root_filter`, each game with its own guard), the teacher at one seat of its `spar`
//! share of them; each finished search game gets the teacher's `label` share blended into its
//! policy targets and then the tactics filter (`selfplay.tactics_filter`), on the caller's
//! thread, before the caller keeps it. The generation loop, the `selfplay` command, the workers
//! and `bench selfplay` all play through [`play_generation`].

use std::sync::atomic::AtomicBool;

use classical::{Guards, HeuristicMix};
use games::{RuleOptions, State, Variant};
use search::BoxedEvaluator;
use search::mcts::{MctsConfig, RootFilter};

use crate::driver::{
    DriverError, PlayedGame, RootFilterFactory, SelfPlayConfig, SelfPlayStats, Session,
    SparringFactory, play,
};
use crate::teacher::{filter_targets, play_teacher_games};

/// What a generation's self-play is played under.
pub struct Generation<'a> {
    pub selfplay: &'a SelfPlayConfig,
    pub mcts: &'a MctsConfig,
    /// The rules of every game (each starts from the start position under them).
    pub options: RuleOptions,
    /// The generation: it sets the teacher's share and the leaf heuristic's weight.
    pub generation: u32,
    /// Game `id` is determined by `(seed, id)`, so a session that plays only the ids missing
    /// from a folder completes it as if it had never stopped.
    pub seed: u64,
    /// When set, no new game starts (games in flight finish and are handed over).
    pub stop: Option<&'a AtomicBool>,
}

/// Plays games `ids` of variant `V` with networks from `make_net` (one per worker, on the
/// worker's thread), handing each finished game to `on_game` (on the caller's thread, in the
/// order they finish, the teacher's first) with the running totals that count it, the
/// teacher's games included; `on_progress` gets the totals after every game or batch. An error
/// of `on_game` stops the session as [`DriverError::Handler`] with its message.
pub fn play_generation<V: Variant>(
    generation: &Generation<'_>,
    ids: Vec<u64>,
    make_net: &(dyn Fn() -> BoxedEvaluator<State<V>> + Sync),
    mut on_game: impl FnMut(&PlayedGame, &SelfPlayStats) -> Result<(), String>,
    mut on_progress: impl FnMut(&SelfPlayStats),
) -> Result<SelfPlayStats, DriverError> {
    let Generation { selfplay: config, mcts, options, generation, seed, stop } = *generation;
    let start = move |_: u64| State::<V>::start_with(options);
    // The teacher's games first (a share of the ids, fading by generation), then the searches'.
    let teacher = config.teacher;
    let (taught, ids): (Vec<u64>, Vec<u64>) =
        ids.into_iter().partition(|&id| teacher.plays(generation, seed, id));
    let taught =
        play_teacher_games::<V>(teacher, config, &taught, seed, &start, stop, |g, stats| {
            let kept = on_game(&g, stats);
            on_progress(stats);
            kept
        })
        .map_err(DriverError::Handler)?;
    if ids.is_empty() {
        return Ok(taught);
    }
    let make_root_filter = config
        .root_filter
        .guards::<V>()
        .map(|make| move || -> Box<dyn RootFilter<State<V>>> { Box::new(make()) });
    let make_sparrer = teacher.sparrers::<V>(seed);
    let session = Session {
        stop,
        root_filter: make_root_filter.as_ref().map(|make| make as &RootFilterFactory<_>),
        sparring: make_sparrer.as_ref().map(|make| make as &SparringFactory<_>),
        ..Session::new(config, mcts, ids, seed, &start)
    };
    let mut labels = teacher.labels::<V>(options);
    let leaf = config.leaf_heuristic;
    let heuristic = leaf.weight_at(generation);
    let make_evaluator = |_| -> BoxedEvaluator<State<V>> {
        let net = make_net();
        if heuristic <= 0.0 {
            return net;
        }
        Box::new(HeuristicMix::<V, _>::new(net, heuristic, leaf.judge()))
    };
    // The totals count the teacher's games too, played before the network's.
    let with_taught = |stats: &SelfPlayStats| taught.then(stats);
    let played = play(
        &session,
        &make_evaluator,
        |mut g, stats| {
            if let Some(labels) = labels.as_mut() {
                labels.apply(&mut g);
            }
            filter_targets::<V>(config.tactics_filter, &mut g, options);
            on_game(&g, &with_taught(stats))
        },
        |stats| on_progress(&with_taught(stats)),
    )?;
    Ok(with_taught(&played))
}
