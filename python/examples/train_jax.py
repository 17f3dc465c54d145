"""Train a small JAX model on a run's records through the package: the policy head against the
search's visit distributions (full searches only) and the value head against the outcomes.

    python train_jax.py data/camelot-cpu       # pip install jax
"""
import sys

import jax
import jax.numpy as jnp
import numpy as np

import camelot_zero as cz

data = cz.training_arrays(sys.argv[1])
n, actions = data["policy"].shape
x = jnp.asarray(data["planes"].reshape(n, -1))        # [N, planes*H*W]
policy, legal = jnp.asarray(data["policy"]), jnp.asarray(data["legal"])
value, full = jnp.asarray(data["value"]), jnp.asarray(data["full_search"], jnp.float32)

key = jax.random.PRNGKey(0)
params = {"hidden": jax.random.normal(key, (x.shape[1], 128)) * 0.01,
          "policy": jnp.zeros((128, actions)), "value": jnp.zeros((128, value.shape[1]))}

def loss(params, i):
    h = jax.nn.relu(x[i] @ params["hidden"])
    logits = jnp.where(legal[i], h @ params["policy"], -1e9)  # legal actions only
    policy_loss = -(policy[i] * jax.nn.log_softmax(logits)).sum(1) @ full[i] / full[i].sum()
    value_loss = -(value[i] * jax.nn.log_softmax(h @ params["value"])).sum(1).mean()
    return policy_loss + value_loss, (policy_loss, value_loss)

step = jax.jit(lambda p, i: jax.value_and_grad(loss, has_aux=True)(p, i))
rng = np.random.default_rng(0)
for t in range(300):
    (total, (pl, vl)), grads = step(params, rng.integers(0, n, 128))
    params = jax.tree.map(lambda p, g: p - 0.05 * g, params, grads)
    if t % 100 == 0 or t == 299:
        print(f"step {t}: policy loss {pl:.3f}, value loss {vl:.3f}")
