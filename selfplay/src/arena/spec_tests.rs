//! Tests of [`super`]: player specs as text.

use super::*;

fn parse(s: &str) -> Result<PlayerSpec, SpecError> {
    s.parse()
}

#[test]
fn every_kind_parses_and_prints_back() {
    let cases = [
        ("random", PlayerSpec::Random),
        ("greedy", PlayerSpec::Greedy),
        ("mcts:sims=32", PlayerSpec::Mcts { sims: 32, cutoff: None, clock: None }),
        ("mcts:sims=200,cutoff=12", PlayerSpec::Mcts { sims: 200, cutoff: Some(12), clock: None }),
        ("alphabeta:depth=3", PlayerSpec::AlphaBeta { depth: Some(3), ms: None, clock: None }),
        ("alphabeta:ms=250", PlayerSpec::AlphaBeta { depth: None, ms: Some(250), clock: None }),
        (
            "alphabeta:depth=5,ms=100",
            PlayerSpec::AlphaBeta { depth: Some(5), ms: Some(100), clock: None },
        ),
        (
            "data/run/models/gen-0007:sims=200",
            PlayerSpec::Checkpoint {
                dir: "data/run/models/gen-0007".into(),
                sims: 200,
                draw: DrawScore::Share,
                values: LeafValues::Network,
                clock: None,
            },
        ),
        (
            "runs/gen-0028:sims=16,draw=0.25",
            PlayerSpec::Checkpoint {
                dir: "runs/gen-0028".into(),
                sims: 16,
                draw: DrawScore::Fixed(0.25),
                values: LeafValues::Network,
                clock: None,
            },
        ),
        (
            "runs/gen-0028:sims=64,heuristic=0.5",
            PlayerSpec::Checkpoint {
                dir: "runs/gen-0028".into(),
                sims: 64,
                draw: DrawScore::Share,
                values: LeafValues::Heuristic { weight: 0.5, judge: Judge::Static },
                clock: None,
            },
        ),
        (
            "runs/gen-0028:sims=64,draw=0.25,heuristic=1,judge=quiescence",
            PlayerSpec::Checkpoint {
                dir: "runs/gen-0028".into(),
                sims: 64,
                draw: DrawScore::Fixed(0.25),
                values: LeafValues::Heuristic { weight: 1.0, judge: Judge::Quiescence },
                clock: None,
            },
        ),
    ];
    for (text, spec) in cases {
        assert_eq!(parse(text), Ok(spec.clone()), "{text}");
        assert_eq!(spec.to_string(), text);
        assert_eq!(parse(&spec.to_string()), Ok(spec));
    }
    assert_eq!(
        parse("mcts"),
        Ok(PlayerSpec::Mcts { sims: DEFAULT_SIMS, cutoff: None, clock: None })
    );
    let plain = PlayerSpec::AlphaBeta { depth: Some(DEFAULT_DEPTH), ms: None, clock: None };
    assert_eq!(parse("alphabeta"), Ok(plain));
    assert_eq!(parse("alphabeta:ms=5,depth=2").unwrap().to_string(), "alphabeta:depth=2,ms=5");
    let ckpt = parse("./gen-0003").unwrap();
    assert_eq!(ckpt.sims(), Some(DEFAULT_SIMS));
    assert_eq!(ckpt.checkpoint(), Some(Path::new("./gen-0003")));
    let weird = parse("runs/a:b/gen-0001:sims=4").unwrap();
    assert_eq!(weird.checkpoint(), Some(Path::new("runs/a:b/gen-0001")));
}

#[test]
fn short_names_are_what_records_carry() {
    assert_eq!(parse("data/r/models/gen-0007:sims=64").unwrap().short_name(), "gen-0007:sims=64");
    assert_eq!(parse("mcts:sims=8").unwrap().short_name(), "mcts:sims=8");
    assert_eq!(parse("r/gen-0002:draw=0,sims=4").unwrap().short_name(), "gen-0002:sims=4,draw=0");
    assert_eq!(PlayerSpec::Random.short_name(), "random");
    // A network with the classical evaluation's values is not the checkpoint alone.
    assert_eq!(
        parse("r/gen-0002:judge=quiescence,heuristic=1").unwrap().short_name(),
        "gen-0002:sims=64,heuristic=1,judge=quiescence"
    );
    assert_eq!(
        parse("r/gen-0002:heuristic=0.5,judge=static").unwrap().short_name(),
        "gen-0002:sims=64,heuristic=0.5"
    );
}

#[test]
fn bad_specs_are_named() {
    let refused = [
        ("", SpecError::Empty),
        ("alphabet", SpecError::UnknownKind("alphabet".into())),
        ("alphabeta:depth=0", SpecError::BadCount("depth=0".into())),
        ("alphabeta:ms=x", SpecError::BadCount("ms=x".into())),
        ("mcts:cutoff=-1", SpecError::BadCount("cutoff=-1".into())),
        ("mcts:sims=0", SpecError::BadSims("sims=0".into())),
        ("mcts:sims=abc", SpecError::BadSims("sims=abc".into())),
        ("mcts:sims=-3", SpecError::BadSims("sims=-3".into())),
        ("mcts:sims=", SpecError::BadSims("sims=".into())),
        // Contempt is a share of a point.
        ("a/gen-0001:draw=1.5", SpecError::BadDraw("draw=1.5".into())),
        ("a/gen-0001:draw=-0.1", SpecError::BadDraw("draw=-0.1".into())),
        ("a/gen-0001:draw=x", SpecError::BadDraw("draw=x".into())),
        ("random:sims=3", SpecError::NoOptions("random".into())),
        ("a/g:heuristic=1,judge=deep", SpecError::BadJudge("judge=deep".into())),
        ("a/g:judge=quiescence", SpecError::JudgeWithoutHeuristic("judge=quiescence".into())),
    ];
    for (spec, error) in refused {
        assert_eq!(parse(spec), Err(error), "{spec:?}");
    }
    for bad in ["heuristic=0", "heuristic=1.5", "heuristic=-1", "heuristic=x", "heuristic="] {
        assert_eq!(parse(&format!("a/g:{bad}")), Err(SpecError::BadHeuristic(bad.into())));
    }
    // Options the kind does not take: contempt and the heuristic are a network player's only.
    for spec in ["mcts:depth=3", "mcts:sims=4,draw=0.2", "mcts:heuristic=1"] {
        assert!(matches!(parse(spec), Err(SpecError::UnknownOption { .. })), "{spec:?}");
    }
    let msg = parse("alphabeta:sims=3").unwrap_err().to_string();
    assert!(msg.contains("depth=, ms="), "{msg}");
    let msg = parse("a/gen-0001:depth=2").unwrap_err().to_string();
    assert!(msg.contains("draw="), "{msg}");
    let msg = parse("alphabet").unwrap_err().to_string();
    assert!(msg.contains("alphabeta:depth=N") && msg.contains("mcts:sims=N"), "{msg}");
}

#[test]
fn searches_that_would_not_finish_are_refused() {
    let too_large = |spec: &str| match parse(spec) {
        Err(SpecError::TooLarge { option, max, .. }) => (option, max),
        other => panic!("{spec}: {other:?}"),
    };
    assert_eq!(too_large("alphabeta:depth=40"), ("depth=40".into(), MAX_FIXED_DEPTH));
    assert_eq!(too_large("alphabeta:depth=99,ms=100"), ("depth=99".into(), 64));
    assert_eq!(too_large("alphabeta:ms=600001"), ("ms=600001".into(), MAX_MS));
    assert_eq!(too_large("mcts:sims=1000001"), ("sims=1000001".into(), MAX_SIMS));
    assert_eq!(too_large("a/gen-0001:sims=4000000000"), ("sims=4000000000".into(), MAX_SIMS));
    assert_eq!(too_large("mcts:sims=8,cutoff=10001"), ("cutoff=10001".into(), MAX_CUTOFF));
    let msg = parse("alphabeta:depth=40").unwrap_err().to_string();
    assert!(msg.contains("at most 8") && msg.contains("ms="), "{msg}");
    // The limits themselves are allowed.
    for spec in [
        "alphabeta:depth=8",
        "alphabeta:depth=64,ms=1000",
        "alphabeta:ms=600000",
        "mcts:sims=1000000,cutoff=10000",
    ] {
        assert!(parse(spec).is_ok(), "{spec}");
    }
}

#[test]
fn clocks_put_players_on_time() {
    let clock = Some(TimeControl { base_ms: 5_000, increment_ms: 50 });
    let network = |sims| PlayerSpec::Checkpoint {
        dir: "a/gen-0003".into(),
        sims,
        draw: DrawScore::Share,
        values: LeafValues::Network,
        clock,
    };
    let cases = [
        ("a/gen-0003:tc=5+0.05", network(MAX_SIMS)),
        ("a/gen-0003:sims=400,tc=5+0.05", network(400)),
        ("alphabeta:tc=5+0.05", PlayerSpec::AlphaBeta { depth: None, ms: None, clock }),
        // A clock bounds the time, so the depth may go past the fixed depths' limit.
        (
            "alphabeta:depth=12,tc=5+0.05",
            PlayerSpec::AlphaBeta { depth: Some(12), ms: None, clock },
        ),
        ("mcts:cutoff=8,tc=5+0.05", PlayerSpec::Mcts { sims: MAX_SIMS, cutoff: Some(8), clock }),
        (
            "engine:tc=5+0.05 camelot-zero engine --sims 100",
            PlayerSpec::Engine { command: "camelot-zero engine --sims 100".into(), clock },
        ),
    ];
    for (text, spec) in cases {
        assert_eq!(parse(text), Ok(spec.clone()), "{text}");
        assert_eq!(spec.to_string(), text);
        assert_eq!(spec.clock(), clock, "{text}");
    }
    let short = parse("data/r/models/gen-0007:tc=5+0.05").unwrap().short_name();
    assert_eq!(short, "gen-0007:tc=5+0.05");
    let short = parse("engine:tc=10 /usr/bin/camelot-zero engine").unwrap().short_name();
    assert_eq!(short, "engine:tc=10 camelot-zero engine");
    assert_eq!(parse("alphabeta").unwrap().clock(), None);
    assert_eq!(PlayerSpec::Random.clock(), None);

    for bad in ["alphabeta:tc=0", "a/g:tc=abc", "mcts:tc=5+10", "a/g:sims=4,tc=", "engine:tc=x cmd"]
    {
        let err = parse(bad).unwrap_err();
        assert!(matches!(err, SpecError::BadClock { .. }), "{bad}: {err:?}");
        assert!(err.to_string().contains("BASE+INC"), "{bad}: {err}");
    }
    assert_eq!(parse("random:tc=5"), Err(SpecError::NoOptions("random".into())));
    assert_eq!(parse("engine:tc=5+0.05"), Err(SpecError::EmptyEngine));
}
