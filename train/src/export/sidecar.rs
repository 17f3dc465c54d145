//! The sidecar `<out>.json` written beside an exported model: everything a program in another
//! language needs to use the network without this code — the tensors and their names, the
//! input planes and how to fill them, the board and each seat's frame, the action index map,
//! the value classes, and the architecture. docs/export.md ("The sidecar") has the field
//! table; the game tables come from [`super::tables`].

use games::{Encode, State, Variant, relative_seat_name};
use model::{CheckpointMeta, NetConfig};
use serde::Serialize;
use serde_json::{Value, json};

use super::tables::{self, Actions, Board, Perspective, Plane, PlayerInfo};

/// The sidecar's `format` and `format_version`.
pub const FORMAT: &str = "camelot-zero export sidecar";
pub const FORMAT_VERSION: u32 = 1;

/// What the sidecar describes beyond the game: the model file and where it came from.
pub struct ExportInfo<'a> {
    /// `onnx` or `safetensors`.
    pub model_format: &'static str,
    /// The model file's name (the sidecar sits beside it).
    pub model_file: String,
    pub checkpoint_dir: String,
    pub meta: &'a CheckpointMeta,
    /// ONNX with a fixed batch size; None: symbolic `batch`.
    pub batch: Option<usize>,
    pub batch_norm_epsilon: f64,
    /// safetensors: every tensor's name and shape, in file order.
    pub tensors: Option<Vec<(String, Vec<usize>)>>,
}

#[derive(Serialize)]
pub struct Sidecar {
    pub format: &'static str,
    pub format_version: u32,
    pub written_by: String,
    pub model_file: String,
    pub model_format: &'static str,
    pub checkpoint: CheckpointInfo,
    pub variant: &'static str,
    pub encoding_version: u32,
    pub start_position: &'static str,
    pub players: Vec<PlayerInfo>,
    pub input: TensorInfo,
    pub outputs: Outputs,
    pub board: Board,
    pub perspective: Perspective,
    pub planes: Vec<Plane>,
    pub actions: Actions,
    pub architecture: Architecture,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tensors: Option<Vec<TensorEntry>>,
}

#[derive(Serialize)]
pub struct CheckpointInfo {
    pub path: String,
    pub weights_fnv1a64: String,
    pub config: NetConfig,
}

/// A graph input or output: dims are numbers or the symbolic `"batch"`.
#[derive(Serialize)]
pub struct TensorInfo {
    pub name: &'static str,
    pub dtype: &'static str,
    pub shape: Vec<Value>,
    pub meaning: String,
}

#[derive(Serialize)]
pub struct Outputs {
    pub policy: TensorInfo,
    pub value: ValueOutput,
}

#[derive(Serialize)]
pub struct ValueOutput {
    #[serde(flatten)]
    pub tensor: TensorInfo,
    pub classes: Vec<String>,
    pub activation: &'static str,
    pub seat_values: String,
}

#[derive(Serialize)]
pub struct Architecture {
    pub blocks: usize,
    pub channels: usize,
    pub policy_head_channels: usize,
    pub value_head_channels: usize,
    pub value_hidden: usize,
    pub policy_channels: usize,
    pub cells: usize,
    pub value_classes: usize,
    pub batch_norm_epsilon: f64,
    pub forward: Vec<String>,
}

#[derive(Serialize)]
pub struct TensorEntry {
    pub name: String,
    pub dtype: &'static str,
    pub shape: Vec<usize>,
}

/// The sidecar of a model of variant `V`.
pub fn sidecar<V: Variant>(info: ExportInfo<'_>) -> Sidecar {
    let encoding = info.meta.config.shape.encoding;
    let l = State::<V>::layout(encoding);
    let batch = info.batch.map_or_else(|| json!("batch"), |b| json!(b));
    let players = V::NUM_PLAYERS;
    let input = TensorInfo {
        name: model::onnx::INPUT_NAME,
        dtype: "float32",
        shape: vec![batch.clone(), json!(l.planes), json!(l.height), json!(l.width)],
        meaning: "row-major [batch, plane, row, col]; planes as in `planes`, drawn in the \
                  mover's frame (see `perspective`), off-board positions 0"
            .into(),
    };
    let policy = TensorInfo {
        name: model::onnx::POLICY_NAME,
        dtype: "float32",
        shape: vec![batch.clone(), json!(l.num_actions())],
        meaning: "logits over the action indices of `actions` (not softmaxed): keep the legal \
                  actions' logits and softmax over them"
            .into(),
    };
    let mut classes: Vec<String> =
        (0..players).map(|k| format!("{} wins", relative_seat_name(k, players))).collect();
    classes.push("draw".into());
    let value = ValueOutput {
        tensor: TensorInfo {
            name: model::onnx::VALUE_NAME,
            dtype: "float32",
            shape: vec![batch, json!(l.value_classes)],
            meaning: "logits of the game's outcome classes (not softmaxed)".into(),
        },
        classes,
        activation: "softmax",
        seat_values: format!(
            "score share of seat s = p[k] + p[{players}] / {players}, where k = (s - mover) mod \
             {players} (class k: the seat k places after the mover wins; class {players}: draw)"
        ),
    };
    let c = &info.meta.config;
    let tensors = info.tensors.map(|list| {
        list.into_iter().map(|(name, shape)| TensorEntry { name, dtype: "F32", shape }).collect()
    });
    Sidecar {
        format: FORMAT,
        format_version: FORMAT_VERSION,
        written_by: format!("camelot-zero {}", env!("CARGO_PKG_VERSION")),
        model_file: info.model_file,
        model_format: info.model_format,
        checkpoint: CheckpointInfo {
            path: info.checkpoint_dir,
            weights_fnv1a64: info.meta.weights.fnv1a64.clone(),
            config: c.clone(),
        },
        variant: V::NAME,
        encoding_version: encoding.version(),
        start_position: V::START,
        players: tables::players::<V>(),
        input,
        outputs: Outputs { policy, value },
        board: tables::board::<V>(),
        perspective: tables::perspective::<V>(),
        planes: tables::planes::<V>(encoding),
        actions: tables::actions::<V>(),
        architecture: architecture(c, info.batch_norm_epsilon),
        tensors,
    }
}

/// The network's forward pass in words, with the safetensors names of its weights.
fn architecture(c: &NetConfig, batch_norm_epsilon: f64) -> Architecture {
    let s = &c.shape;
    let forward = [
        "bn(y) = (y - running_mean) / sqrt(running_var + batch_norm_epsilon) * weight + bias, \
         per channel; every conv is stride 1, zero padding keeping H x W, no bias unless listed",
        "x = relu(trunk.input.bn(trunk.input.conv(planes)))  # 3x3, [B, C, H, W]",
        "for b in 0..blocks: x = relu(x + trunk.block{b}.bn2(trunk.block{b}.conv2(\
         relu(trunk.block{b}.bn1(trunk.block{b}.conv1(x))))))  # 3x3 convs",
        "h = relu(policy.bn(policy.conv(x)))  # 1x1, [B, Ph, H, W]",
        "g(t) = t at the board cells: [B, ch, H*W] indexed by board.cells[i].row * W + col, in \
         cell order -> [B, ch, N]",
        "moves = g(policy.out(h))  # 1x1 conv with bias, [B, P, N]; transpose to [B, N, P] and \
         flatten: logit of action cell * P + channel",
        "end_move = policy.end_move(mean over the N cells of g(h))  # linear, [B, 1]",
        "policy_logits = concat(moves, end_move)  # [B, N * P + 1]",
        "v = g(relu(value.bn(value.conv(x))))  # 1x1, [B, Vc, N], flattened channel-major to \
         [B, Vc * N] (index vc * N + cell)",
        "value_logits = value.fc2(relu(value.fc1(v)))  # linear layers y = x W^T + b, [B, V]",
    ];
    Architecture {
        blocks: c.blocks,
        channels: c.channels,
        policy_head_channels: c.policy_head_channels,
        value_head_channels: c.value_head_channels,
        value_hidden: c.value_hidden,
        policy_channels: s.policy_channels,
        cells: s.cells.len(),
        value_classes: s.value_classes,
        batch_norm_epsilon,
        forward: forward.map(String::from).to_vec(),
    }
}
