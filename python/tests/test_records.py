"""A run's records through the package: shard listing, training arrays with the right shapes
and sums, pyarrow tables."""

from pathlib import Path

import numpy as np
import pytest

import camelot_zero as cz


def test_training_arrays_have_the_right_shapes_and_sums(smoke_run):
    data = cz.training_arrays(smoke_run)
    lay = cz.layout("camelot")
    n = data["count"]
    assert data["variant"] == "camelot" and n > 0
    assert data["planes"].shape == (n, lay["planes"], lay["height"], lay["width"])
    assert data["policy"].shape == data["legal"].shape == (n, lay["num_actions"])
    assert data["value"].shape == (n, lay["value_classes"])
    assert data["result"].shape == (n, 2)
    for name in ("mover", "full_search", "generation", "game_id", "ply"):
        assert data[name].shape == (n,)
    np.testing.assert_allclose(data["policy"].sum(axis=1), 1.0, atol=1e-4)
    assert not (data["policy"] > 0)[~data["legal"]].any(), "policy mass only on legal actions"
    np.testing.assert_allclose(data["value"].sum(axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(data["result"].sum(axis=1), 1.0, atol=1e-6)
    assert set(np.unique(data["generation"])) == {0, 1}
    # The first rows again, one by one from their position strings.
    pa = pytest.importorskip("pyarrow")
    positions = cz.positions_table(smoke_run)
    assert positions.num_rows == n
    games = cz.games_table(smoke_run)
    assert games.num_rows == 16 and isinstance(games, pa.Table)
    first = cz.Position(positions.column("position")[0].as_py())
    np.testing.assert_array_equal(first.encode(), data["planes"][0])
    np.testing.assert_array_equal(first.legal_mask(), data["legal"][0])


def test_limit_and_shard_listing(smoke_run):
    shards = cz.list_shards(smoke_run)
    assert len(shards) == 4 and all(g.endswith(".parquet") for g, _ in shards)
    assert cz.training_arrays(smoke_run, limit=5)["planes"].shape[0] == 5


def test_shards_rewritten_by_pyarrow_read_the_same(smoke_run, tmp_path):
    """Records another tool rewrote (pyarrow: data pages v2, small pages, a page index, page
    checksums, statistics and dictionaries) pass the readers' checks of the footer and every page
    header and give the same arrays."""
    pq = pytest.importorskip("pyarrow.parquet")
    shards = cz.list_shards(smoke_run)
    for games, positions in shards:
        for path in (games, positions):
            path = Path(path)
            target = tmp_path / path.parent.name / path.name
            target.parent.mkdir(exist_ok=True)
            table = pq.read_table(path)
            table = table.replace_schema_metadata(pq.read_metadata(path).metadata)
            pq.write_table(table, target, data_page_version="2.0", data_page_size=512,
                           write_page_index=True, write_page_checksum=True,
                           write_statistics=True, use_dictionary=True, compression="snappy")
            assert pq.ParquetFile(target).metadata.row_group(0).column(0).has_offset_index
    assert len(cz.list_shards(tmp_path)) == len(shards)
    original, rewritten = cz.training_arrays(smoke_run), cz.training_arrays(tmp_path)
    assert rewritten["count"] == original["count"] > 0
    for name in ("planes", "policy", "legal", "value", "result", "mover", "game_id", "ply"):
        np.testing.assert_array_equal(rewritten[name], original[name], err_msg=name)


def test_a_file_that_is_not_a_record_is_a_value_error(tmp_path):
    bad = tmp_path / "games-000000.parquet"
    bad.write_bytes(b"PAR1 not parquet PAR1")
    (tmp_path / "positions-000000.parquet").write_bytes(b"")
    with pytest.raises(ValueError):
        cz.training_arrays(tmp_path)
