"""Frost: freeze TensorFlow training artifacts into inference graphs, without TensorFlow.

    import frost
    graph_def_bytes = frost.freeze("model.ckpt", outputs=["logits"])
    frost.freeze("saved_model_dir", signature="serving_default", output="frozen.pb")

Every failure raises frost.FrostError with the same one-line message as freeze-graph.
"""

from typing import Iterable, Optional, Union
import os

from . import _frost

FrostError = _frost.FrostError

__all__ = ["freeze", "FrostError"]


def _names(value: Union[None, str, Iterable[str]]) -> list:
    """A list of names from None, "a,b" or an iterable."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return [str(v) for v in value]


def freeze(model: Union[str, os.PathLike], outputs: Union[None, str, Iterable[str]] = None, *,
           checkpoint: Optional[Union[str, os.PathLike]] = None, signature: Optional[str] = None,
           ema: Union[bool, str] = False, bind: Union[None, dict, Iterable[str]] = None,
           only: Union[None, str, Iterable[str]] = None,
           except_: Union[None, str, Iterable[str]] = None,
           tags: Union[None, str, Iterable[str]] = None, optimize: bool = False,
           output: Optional[Union[str, os.PathLike]] = None, text: bool = False
           ) -> Optional[bytes]:
    """Freezes a model as freeze-graph does (docs/freeze-graph.md).

    model: a checkpoint prefix or directory, a .meta, a GraphDef (.pb/.pbtxt) or a SavedModel
      directory.
    outputs: node or tensor names ("logits", "add:0"), "collection:NAME", "signature:NAME".
    checkpoint: the checkpoint to read (default: the model's own).
    signature: a SavedModel signature whose outputs to keep when outputs is not given.
    ema: True (or the EMA's name) freezes the moving averages of averaged variables.
    bind: placeholders to replace by constants, {"is_training": "false"} or ["x=1"].
    only, except_: variables to freeze only / to leave variables.
    tags: the SavedModel meta graph's tags (default: serve).
    optimize: then optimize for inference, as freeze-graph --optimize.
    output: write the frozen GraphDef there (atomically) and return None.
    text: text format (pbtxt) instead of binary.

    Returns the frozen GraphDef's bytes unless output is given. The GIL is released while it runs.
    """
    if isinstance(bind, dict):
        bind = ["%s=%s" % (k, v) for k, v in bind.items()]
    return _frost.freeze(
        os.fspath(model), _names(outputs),
        None if checkpoint is None else os.fspath(checkpoint), signature,
        ("ExponentialMovingAverage" if ema is True else ema) or None,
        _names(bind), _names(only), _names(except_), _names(tags), bool(optimize),
        None if output is None else os.fspath(output), bool(text))
