"""Frost: freeze TensorFlow training artifacts into inference graphs, without TensorFlow.

    import frost
    graph_def_bytes = frost.freeze("model.ckpt", outputs=["logits"])
    frost.freeze("saved_model_dir", signature="serving_default", output="frozen.pb")
    optimized = frost.transform(graph_def_bytes, "fold_constants strip_unused_nodes",
                                inputs=["x"], outputs=["logits"])
    frost.inspect_checkpoint("model.ckpt")["variables"]
    frost.summarize("frozen.pb")["inputs"]

Every call does what the command-line tool of the same job does, in-process and with the GIL
released (docs/python.md). Every failure raises FrostError with the tool's one-line message;
warnings are FrostWarnings. A model is a path (os.PathLike), its bytes, or, where TensorFlow is
importable, a tf.compat.v1.GraphDef or MetaGraphDef (or a tf.Graph); TensorFlow is never needed.
"""

from typing import Any, Dict, Iterable, Optional, Union
import json as _json
import os as _os
import sys as _sys
import warnings as _warnings


def _load_extension():
    """frost._frost, loaded so that the libraries it links (protobuf above all) are looked up in
    its own dependencies before the process's: TensorFlow's libraries, often loaded first,
    export a protobuf of another version, which frost's generated code must never reach."""
    flags = _sys.getdlopenflags()
    _sys.setdlopenflags(flags | getattr(_os, "RTLD_DEEPBIND", 0))
    try:
        from . import _frost as extension
    finally:
        _sys.setdlopenflags(flags)
    return extension


_frost = _load_extension()

__all__ = ["freeze", "transform", "inspect_checkpoint", "summarize", "FrostError",
           "FrostWarning"]

FrostError = _frost.FrostError
#: The version of the libraries inside, as the tools' --version says it ("Frost 0.1.0").
__version__ = _frost.version.split()[-1]


class FrostWarning(UserWarning):
    """What a tool prints as "warning: ..." (an ignored transform error, a py_func kept)."""


PathLike = Union[str, "_os.PathLike[str]"]
#: A path, serialized bytes (binary or text), or a protobuf message with SerializeToString()
#: (tf.compat.v1.GraphDef, MetaGraphDef), or a tf.Graph.
ModelLike = Union[PathLike, bytes, Any]
Names = Union[None, str, Iterable[str]]


def _names(value: Names) -> list:
    """A list of names from None, "a,b" or an iterable."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return [str(v) for v in value]


def _model(model: ModelLike) -> "_frost.ModelArg":
    if isinstance(model, (bytes, bytearray, memoryview)):
        return _frost.ModelArg(None, bytes(model), "<bytes>")
    if hasattr(model, "as_graph_def"):  # a tf.Graph
        model = model.as_graph_def()
    if hasattr(model, "SerializeToString"):
        return _frost.ModelArg(None, model.SerializeToString(deterministic=True),
                               "<%s>" % type(model).__name__)
    return _frost.ModelArg(_os.fspath(model), None, "")


def _path(value: Optional[PathLike]) -> Optional[str]:
    return None if value is None else _os.fspath(value)


def _warn(text: str) -> None:
    for line in text.splitlines():
        _warnings.warn(line[len("warning: "):] if line.startswith("warning: ") else line,
                      FrostWarning, stacklevel=3)


def freeze(model: ModelLike, outputs: Names = None, *, checkpoint: Optional[PathLike] = None,
           signature: Optional[str] = None, ema: Union[bool, str] = False,
           bind: Union[None, Dict[str, Any], Iterable[str]] = None, only: Names = None,
           except_: Names = None, tags: Names = None, optimize: bool = False,
           output: Optional[PathLike] = None, text: bool = False) -> Optional[bytes]:
    """Freezes a model as freeze-graph does (docs/freeze-graph.md).

    model: a checkpoint prefix or directory, a .meta, a GraphDef (.pb/.pbtxt) or a SavedModel
      directory; or a GraphDef/MetaGraphDef as bytes or object (then name the checkpoint).
    outputs: node or tensor names ("logits", "add:0"), "collection:NAME", "signature:NAME".
    checkpoint: the checkpoint to read (default: the model's own).
    signature: a SavedModel signature whose outputs to keep when outputs is not given.
    ema: True (or the EMA's name) freezes the moving averages of averaged variables.
    bind: placeholders to replace by constants, {"is_training": False} or ["is_training=false"].
    only, except_: variables to freeze only / to leave variables.
    tags: the SavedModel meta graph's tags (default: serve).
    optimize: then optimize for inference, as freeze-graph --optimize.
    output: write the frozen GraphDef there (atomically) and return None.
    text: text format (pbtxt) instead of binary.

    Returns the frozen GraphDef's bytes, byte for byte freeze-graph's, unless output is given.
    """
    if isinstance(bind, dict):
        bind = ["%s=%s" % (k, str(v).lower() if isinstance(v, bool) else v)
                for k, v in bind.items()]
    result, warned = _frost.freeze(
        _model(model), _names(outputs), _path(checkpoint), signature,
        ("ExponentialMovingAverage" if ema is True else ema) or None,
        _names(bind), _names(only), _names(except_), _names(tags), bool(optimize),
        _path(output), bool(text))
    _warn(warned)
    return result


def transform(graph: ModelLike, transforms: Union[str, Iterable[str]], inputs: Names = None,
              outputs: Names = None, *, output: Optional[PathLike] = None,
              text: bool = False) -> Optional[bytes]:
    """Runs TensorFlow's graph transforms as transform-graph does (docs/transforms.md).

    graph: a GraphDef: a path, bytes (binary or text) or a tf.compat.v1.GraphDef.
    transforms: "fold_constants(ignore_errors=true) strip_unused_nodes", or a list of such.
    inputs, outputs: the graph's inputs and outputs, as transform_graph's --inputs/--outputs.
    output: write the result there (atomically) and return None.
    text: text format (pbtxt) instead of binary.

    Returns the transformed GraphDef's bytes, byte for byte transform-graph's, unless output
    is given. An unknown transform or parameter raises FrostError before anything runs.
    """
    if not isinstance(transforms, str):
        transforms = " ".join(transforms)
    result, warned = _frost.transform(_model(graph), transforms, _names(inputs),
                                      _names(outputs), _path(output), bool(text))
    _warn(warned)
    return result


def inspect_checkpoint(path: PathLike, tensors: Names = None, *, values: bool = False,
                       verify_checksums: bool = True) -> Dict[str, Any]:
    """What frost-inspect checkpoint --json prints, as a dict (schema in docs/inspect.md).

    path: a checkpoint prefix, one of its files, or a directory (its latest checkpoint).
    tensors: variables whose exact values to include (all of them with values=True).
    verify_checksums: check each value's CRC as it is read.

    {"checkpoint": prefix, "format": "V2", "variables": [{"name", "dtype", "shape", ...}], ...}
    Strings from the file are byte strings: s.encode("latin-1") gives the bytes back.
    """
    return _json.loads(_frost.inspect_checkpoint(_os.fspath(path), _names(tensors), bool(values),
                                                bool(verify_checksums)))


def summarize(model: ModelLike, *, tags: Names = None) -> Dict[str, Any]:
    """What frost-inspect graph --json prints, as a dict (schema in docs/inspect.md): inputs,
    candidate outputs, op histogram, variables, and a MetaGraph's signatures and collections.

    model: a GraphDef, MetaGraphDef or SavedModel (file or directory), bytes, or an object.
    tags: the SavedModel meta graph's tags (default: serve).
    """
    return _json.loads(_frost.summarize(_model(model), _names(tags)))


# The API alone in the package's namespace (dir(frost)): no typing names.
del Any, Dict, Iterable, Optional, Union
