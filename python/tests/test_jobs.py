"""One process, many jobs: each frost call owns what it read and what it found, so a failure
never reaches a later call, and calls on two threads keep apart (issue #27)."""
import concurrent.futures
import os
import shutil

import pytest

import frost

EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))), "examples", "linear-regression")


@pytest.fixture()
def checkpoints(tmp_path):
    """good/: the bundled example; corrupt/: the same with every byte of its weights flipped, so
    their stored checksums no longer match."""
    good, corrupt = tmp_path / "good", tmp_path / "corrupt"
    shutil.copytree(EXAMPLE, good)
    shutil.copytree(EXAMPLE, corrupt)
    data = corrupt / "model.data-00000-of-00001"
    data.write_bytes(bytes(b ^ 0xFF for b in data.read_bytes()))
    return str(good), str(corrupt)


def test_a_call_after_a_failed_one_gets_its_own_result(checkpoints):
    good, corrupt = checkpoints
    expected = frost.freeze(good, outputs=["pred"])
    with pytest.raises(frost.FrostError, match="checksum mismatch"):
        frost.freeze(corrupt, outputs=["pred"])
    assert frost.freeze(good, outputs=["pred"]) == expected
    small = frost.transform(expected, "strip_unused_nodes", inputs=["X"], outputs=["pred"])
    assert small
    with pytest.raises(frost.FrostError, match="checksum mismatch"):
        frost.freeze(corrupt, outputs=["pred"])


def test_calls_on_two_threads_get_their_own_results(checkpoints):
    good, corrupt = checkpoints
    expected = frost.freeze(good, outputs=["pred"])

    def job(path):
        try:
            return frost.freeze(path, outputs=["pred"])
        except frost.FrostError as e:
            return e

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(job, [good, corrupt] * 20))
    assert results[0::2] == [expected] * 20
    assert all(isinstance(r, frost.FrostError) and "checksum mismatch" in str(r)
               for r in results[1::2])


def test_a_later_call_may_write_what_an_earlier_one_read(checkpoints, tmp_path):
    good, _ = checkpoints
    frozen = tmp_path / "frozen.pb"
    frost.freeze(good, outputs=["pred"], output=str(frozen))
    frost.summarize(str(frozen))
    frost.freeze(good, outputs=["pred"], output=str(frozen))
    with pytest.raises(frost.FrostError, match="is an input"):
        frost.freeze(str(frozen), outputs=["pred"], output=str(frozen))


def test_readers_on_other_threads_are_no_inputs_of_a_writer(tmp_path):
    """While three threads summarize cur.pb, a fourth writes it: the inputs of their calls are
    theirs, not the writer's (each call's Context notes its own inputs)."""
    source = os.path.join(EXAMPLE, "..", "..", "test", "Tools", "Inputs", "freeze-model.pbtxt")
    current = str(tmp_path / "cur.pb")
    frost.transform(source, "remove_device", output=current)
    stop = []

    def read():
        count = 0
        while not stop:
            frost.summarize(current)
            count += 1
        return count

    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        readers = [pool.submit(read) for _ in range(3)]
        try:
            for _ in range(40):
                frost.transform(source, "remove_device", output=current)
        finally:
            stop.append(True)
        assert all(r.result() > 0 for r in readers)
