//! The sample encoding's tests ([`records::sample`], re-exported as [`crate::targets`]): they
//! build their records with this crate's test helpers.

use games::{Camelot, Encode, Encoding, Game, RuleOptions, TriCamelot};

use crate::targets::*;
use crate::testutil::{random_records, uniform_record};

fn classes(result: &[f32], mover: usize) -> Vec<f32> {
    let mut out = vec![9.0; result.len() + 1];
    value_target(result, mover, result.len(), &mut out).unwrap();
    out
}

#[test]
fn value_classes_two_players() {
    // [mover wins, other wins, draw]
    assert_eq!(classes(&[1.0, 0.0], 0), [1.0, 0.0, 0.0]);
    assert_eq!(classes(&[1.0, 0.0], 1), [0.0, 1.0, 0.0]);
    assert_eq!(classes(&[0.0, 1.0], 0), [0.0, 1.0, 0.0]);
    assert_eq!(classes(&[0.0, 1.0], 1), [1.0, 0.0, 0.0]);
    assert_eq!(classes(&[0.5, 0.5], 0), [0.0, 0.0, 1.0]);
    assert_eq!(classes(&[0.5, 0.5], 1), [0.0, 0.0, 1.0]);
}

#[test]
fn value_classes_three_players() {
    // [mover wins, next wins, the one after wins, draw]
    for winner in 0..3 {
        for mover in 0..3 {
            let mut result = [0.0; 3];
            result[winner] = 1.0;
            let mut want = [0.0; 4];
            want[(winner + 3 - mover) % 3] = 1.0;
            assert_eq!(classes(&result, mover), want, "winner {winner} mover {mover}");
        }
    }
    let third = 1.0 / 3.0;
    for mover in 0..3 {
        assert_eq!(classes(&[third; 3], mover), [0.0, 0.0, 0.0, 1.0]);
    }
    let mut out = [0.0; 4];
    assert!(value_target(&[1.0, 0.0], 0, 3, &mut out).is_err());
    assert!(value_target(&[1.0, -1.0, 0.0], 0, 3, &mut out).is_err());
    assert!(value_target(&[f32::NAN, 0.0, 0.0], 0, 3, &mut out).is_err());
}

#[test]
fn search_values_mix_into_the_value_classes() {
    let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
    // Two seats, Black (1) to move, White won the game; the search gave Black 0.8.
    let mut out = classes(&[1.0, 0.0], 1);
    search_value_target(&[0.2, 0.8], 1, 0.25, &mut out).unwrap();
    assert!(close(&out, &[0.2, 0.8, 0.0]), "{out:?}");
    // Weight 1 is the search's value alone; shares below 1 leave the rest to the draw
    // class (drawn ends scored 0.25 each), shares above 1 are scaled down.
    let mut out = classes(&[0.5, 0.5], 0);
    search_value_target(&[0.3, 0.2], 0, 1.0, &mut out).unwrap();
    assert!(close(&out, &[0.3, 0.2, 0.5]), "{out:?}");
    let mut out = classes(&[1.0, 0.0], 0);
    search_value_target(&[1.0, 1.0], 0, 0.5, &mut out).unwrap();
    assert!(close(&out, &[0.75, 0.25, 0.0]), "{out:?}");
    // Three seats: classes from the mover on.
    let mut out = classes(&[0.0, 0.0, 1.0], 1);
    search_value_target(&[0.1, 0.6, 0.3], 1, 0.5, &mut out).unwrap();
    assert!(close(&out, &[0.3, 0.65, 0.05, 0.0]), "{out:?}");
    assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    let mut out = [0.0; 3];
    assert!(search_value_target(&[0.5], 0, 0.5, &mut out).is_err());
    assert!(search_value_target(&[0.5, f32::NAN], 0, 0.5, &mut out).is_err());
    assert!(search_value_target(&[0.5, 0.5], 2, 0.5, &mut out).is_err(), "no seat 2");
    assert!(search_value_target(&[], 0, 0.5, &mut []).is_err(), "no classes");
    // In a record: weight 0 leaves the result's target, a weight mixes the root values.
    let mut record = uniform_record(&Camelot::initial(), vec![1.0, 0.0], true);
    record.root_values = vec![0.4, 0.6].into();
    let value_of = |r: &Record, search_weight: f32| {
        let mut sample = Sample::of::<Camelot>();
        sample.encode::<Camelot>(r, 0, search_weight).unwrap();
        sample.value
    };
    assert_eq!(value_of(&record, 0.0), [1.0, 0.0, 0.0]);
    assert!(close(&value_of(&record, 0.5), &[0.7, 0.3, 0.0]));
}

/// The output buffers of one sample of a game, in the basic encoding.
struct Sample {
    planes: Vec<f32>,
    policy: Vec<f32>,
    legal: Vec<bool>,
    value: Vec<f32>,
}

impl Sample {
    fn of<G: TrainGame>() -> Self {
        let l = G::layout(Encoding::Basic);
        Sample {
            planes: vec![0.0; l.input_len()],
            policy: vec![0.0; l.num_actions()],
            legal: vec![false; l.num_actions()],
            value: vec![0.0; l.value_classes],
        }
    }

    /// Encodes `record` under symmetry `sym` with the default rules.
    fn encode<G: TrainGame>(
        &mut self,
        record: &Record,
        sym: usize,
        search_weight: f32,
    ) -> Result<(), SampleError> {
        let slot = SampleSlot {
            encoding: Encoding::Basic,
            planes: &mut self.planes,
            policy: &mut self.policy,
            legal: &mut self.legal,
            value: &mut self.value,
        };
        encode_record::<G>(record, sym, RuleOptions::default(), search_weight, slot)
    }
}

/// Encodes `record` under every symmetry and checks the mirrored targets are exactly the
/// transformed identity targets. Returns whether a symmetry changed the planes, the policy
/// target and the legal mask (the start position is symmetric: there it changes nothing).
fn check_symmetries<G: TrainGame>(record: &Record) -> bool {
    let mut changed = false;
    let l = G::layout(Encoding::Basic);
    let a = l.num_actions();
    let encode = |sym| {
        let mut sample = Sample::of::<G>();
        sample.encode::<G>(record, sym, 0.0).unwrap();
        (sample.planes, sample.policy, sample.legal, sample.value)
    };
    let (planes0, policy0, legal0, value0) = encode(0);
    assert!(legal0.iter().filter(|&&x| x).count() >= record.policy_actions.len());
    for (&i, &p) in record.policy_actions.iter().zip(record.policy_target.iter()) {
        assert_eq!(policy0[i as usize], p);
    }
    for sym in 1..G::symmetries() {
        let (planes, policy, legal, value) = encode(sym);
        let mut want_planes = planes0.clone();
        G::transform_planes(sym, &mut want_planes);
        assert_eq!(planes, want_planes);
        let mut want_policy = vec![0.0; a];
        let mut want_legal = vec![false; a];
        for i in 0..a {
            want_policy[G::transform_action(sym, i)] = policy0[i];
            want_legal[G::transform_action(sym, i)] = legal0[i];
        }
        assert_eq!(policy, want_policy);
        assert_eq!(legal, want_legal);
        assert_eq!(value, value0);
        changed |= planes != planes0 && policy != policy0 && legal != legal0;
    }
    changed
}

#[test]
fn mirrored_targets_are_the_transformed_ones() {
    assert_eq!(Camelot::symmetries(), 2);
    let records = random_records::<Camelot>(7, 6);
    let changed = records.iter().filter(|r| check_symmetries::<Camelot>(r)).count();
    assert!(changed >= 4, "only {changed} positions changed under the mirror: vacuous");
    for record in random_records::<TriCamelot>(8, 4) {
        assert!(!check_symmetries::<TriCamelot>(&record));
    }
}

#[test]
fn bad_records_are_errors() {
    let good = uniform_record(&Camelot::initial(), vec![1.0, 0.0], true);
    let mut sample = Sample::of::<Camelot>();
    let mut run = |r: &Record| sample.encode::<Camelot>(r, 1, 0.0);
    assert_eq!(run(&good), Ok(()));
    let wrong_mover = Record { mover: 1, ..good.clone() };
    assert!(matches!(run(&wrong_mover), Err(SampleError::WrongMover { .. })));
    let garbage = Record { position: "camelot X nonsense".into(), ..good.clone() };
    assert!(matches!(run(&garbage), Err(SampleError::Parse { .. })));
    let illegal =
        Record { policy_actions: vec![0].into(), policy_target: vec![1.0].into(), ..good };
    assert!(matches!(run(&illegal), Err(SampleError::IllegalPolicyAction { action: 0 })));
}
