"""frost.run: the model run on numpy arrays, as frost-run runs it (test/Tools/frost-run.test's
graph, y = x * 2 + 1, n = int32(y), big = y > 4; and the hand-written model of conftest, add =
x * v1 + v2 with v1 = 2, v2 = 3). Values by hand."""
import concurrent.futures
import os

import pytest

import frost

from conftest import TOOLS_INPUTS

np = pytest.importorskip("numpy")

GRAPH = os.path.join(TOOLS_INPUTS, "run", "graph.pbtxt")


def test_outputs_are_numpy_arrays_by_tensor_name():
    out = frost.run(GRAPH, {"x": np.array([[1, 2, 3]], np.float32)}, ["y", "n", "big"])
    assert list(out) == ["y:0", "n:0", "big:0"]
    np.testing.assert_array_equal(out["y:0"], np.array([[3, 5, 7]], np.float32))
    assert out["y:0"].dtype == np.float32
    np.testing.assert_array_equal(out["n:0"], np.array([[3, 5, 7]], np.int32))
    np.testing.assert_array_equal(out["big:0"], [[False, True, True]])


def test_many_calls_in_one_process_each_with_its_own_inputs():
    for k in range(50):
        x = np.full((k % 3 + 1, 3), k, np.float32)
        np.testing.assert_array_equal(frost.run(GRAPH, {"x:0": x}, "y")["y:0"], x * 2 + 1)


def test_calls_on_four_threads_each_get_their_own_outputs(model):
    """Runs of a frozen graph and of a source model (frozen first), and
    refusals, interleaved on four threads: each call's outputs are its own
    inputs' (by hand), and a failing call never reaches another."""
    def job(k):
        x = np.full((k % 4 + 1, 3), k, np.float32)
        if k % 3 == 2:
            try:
                frost.run(GRAPH, {"x": x.astype(np.float64)}, "y")
            except frost.FrostError as e:
                return "refused" if "float64, but placeholder 'x' is float32" in str(e) else str(e)
            return "not refused"
        if k % 3 == 1:
            got = frost.run(str(model), {"x": x[:, :1]}, "add")["add:0"]
            return np.array_equal(got, x[:, :1] * 2 + 3)
        return np.array_equal(frost.run(GRAPH, {"x": x}, "y")["y:0"], x * 2 + 1)

    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(job, range(60)))
    assert results == ["refused" if k % 3 == 2 else True for k in range(60)]


def test_a_source_model_is_frozen_first(model):
    out = frost.run(str(model), {"x": np.array([[1], [2]], np.float32)}, "add")
    np.testing.assert_array_equal(out["add:0"], [[5], [7]])


def test_random_inputs_are_seeded(tmp_path):
    a = frost.run(GRAPH, None, "y", random_inputs=True, seed=4, input_shapes={"x": [5, 3]})
    b = frost.run(GRAPH, None, "y", random_inputs=True, seed=4, input_shapes={"x": [5, 3]},
                  output=tmp_path / "out.npz")
    np.testing.assert_array_equal(a["y:0"], b["y:0"])
    assert a["y:0"].shape == (5, 3)
    np.testing.assert_array_equal(np.load(tmp_path / "out.npz")["y:0"], a["y:0"])


def test_refusals_raise_frost_error_and_the_next_call_works(tmp_path):
    with pytest.raises(frost.FrostError, match="float64, but placeholder 'x' is float32"):
        frost.run(GRAPH, {"x": np.zeros((1, 3))}, "y", output=tmp_path / "out.npz")
    assert not (tmp_path / "out.npz").exists()
    with pytest.raises(frost.FrostError, match=r"'j' \(DecodeJpeg\), which has no kernel"):
        frost.run(GRAPH, {"s": b"not a jpeg"}, "j")
    with pytest.raises(frost.FrostError, match="no value for input 'x'"):
        frost.run(GRAPH, None, "y")
    other = tmp_path / "other.pbtxt"
    other.write_text(open(GRAPH).read().replace("float_val: 1 }", "float_val: 1.5 }"))
    # y = 3, 5, 7 against 3.5, 5.5, 7.5: within rtol 0.1 but for the first (0.5 > 0.35).
    x = np.array([[1, 2, 3]], np.float32)
    with pytest.raises(frost.FrostError, match="'y:0' differs from the other graph's in 1 of 3"):
        frost.run(GRAPH, {"x": x}, "y", compare_with=other, atol=0, rtol=0.1)
    out = frost.run(GRAPH, {"x": x}, "y", compare_with=GRAPH)
    np.testing.assert_array_equal(out["y:0"], [[3, 5, 7]])
