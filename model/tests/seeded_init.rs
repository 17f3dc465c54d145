//! Seeded initialisation: the same seed gives the same network, from [`Net::seeded`] and from
//! the blocks that [`Net::deepen`] adds. In a test binary of its own because burn draws from
//! one process-wide generator: the model crate's unit tests initialise networks unseeded on
//! parallel threads, and a draw of theirs between the seeding and a block's weights would
//! change them (a run initialises nothing concurrently). One test, so nothing runs beside it.

use model::checkpoint::tensors_hash;
use model::testing::camelot_shape;
use model::{Net, NetConfig};

#[test]
fn the_same_seed_gives_the_same_network_and_the_same_new_blocks() {
    let device = Default::default();
    let mut config = NetConfig::preset("b4c32", camelot_shape(13)).unwrap();
    config.blocks = 1;
    let hash = |net: &Net| tensors_hash(net).unwrap();

    let net = Net::seeded(&config, &device, 7).unwrap();
    assert_eq!(hash(&net), hash(&Net::seeded(&config, &device, 7).unwrap()));
    assert_ne!(hash(&net), hash(&Net::seeded(&config, &device, 8).unwrap()));

    let deeper = net.clone().deepen(3, 11).unwrap();
    assert_eq!(hash(&deeper), hash(&net.clone().deepen(3, 11).unwrap()));
    assert_ne!(hash(&deeper), hash(&net.clone().deepen(3, 12).unwrap()));
}
