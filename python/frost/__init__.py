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

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Tuple, Union, overload
import json as _json
import os as _os
import sys as _sys
import types as _types
import warnings as _warnings


def _load_extension() -> _types.ModuleType:
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


if TYPE_CHECKING:  # the extension as its stub (_frost.pyi) has it
    from . import _frost

    class FrostError(RuntimeError):
        """A Frost failure: one line naming the file, the object and where."""
else:
    _frost = _load_extension()
    FrostError = _frost.FrostError

__all__ = ["freeze", "optimize_for_inference", "transform", "verify", "run", "diff",
           "inspect_checkpoint", "summarize", "FrostError", "FrostWarning"]

#: The version of the libraries inside, as the tools' --version says it ("Frost 0.1.0").
__version__ = _frost.version.split()[-1]


class FrostWarning(UserWarning):
    """What a tool prints as "warning: ..." (an ignored transform error, a py_func kept)."""


PathLike = Union[str, "_os.PathLike[str]"]
#: A path, serialized bytes (binary or text), or a protobuf message with SerializeToString()
#: (tf.compat.v1.GraphDef, MetaGraphDef), or a tf.Graph.
ModelLike = Union[PathLike, bytes, Any]
#: A model given as a file or bytes: the graph jobs then return bytes.
ModelData = Union[PathLike, bytes]
Names = Union[None, str, Iterable[str]]


def _names(value: Names) -> List[str]:
    """A list of names from None, "a,b" or an iterable."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return [str(v) for v in value]


def _graph_def_class(model: ModelLike) -> Any:
    """The GraphDef class of the caller's protobuf runtime (its TensorFlow's) when the model is
    a protobuf message or a tf.Graph, else None: a GraphDef object in, a GraphDef object out."""
    if hasattr(model, "as_graph_def"):  # a tf.Graph
        return type(model.as_graph_def())
    if hasattr(model, "graph_def") and hasattr(model, "SerializeToString"):  # a MetaGraphDef
        return type(model.graph_def)
    if hasattr(model, "node") and hasattr(model, "SerializeToString"):  # a GraphDef
        return type(model)
    return None


def _graph_result(model: ModelLike, result: Optional[bytes], text: bool) -> Any:
    """The job's bytes, or a GraphDef object like the model's (not for text or a file)."""
    graph_def = _graph_def_class(model)
    if result is None or text or graph_def is None:
        return result
    return graph_def.FromString(result)


def _model(model: ModelLike, keyword: str) -> "_frost.ModelArg":
    if isinstance(model, (bytes, bytearray, memoryview)):
        return _frost.ModelArg(None, bytes(model), "<bytes>")
    if hasattr(model, "as_graph_def"):  # a tf.Graph
        model = model.as_graph_def()
    if hasattr(model, "SerializeToString"):
        return _frost.ModelArg(None, model.SerializeToString(deterministic=True),
                               "<%s>" % type(model).__name__)
    return _frost.ModelArg(_fspath(model, keyword), None, "")


def _fspath(value: PathLike, keyword: str) -> str:
    """The path as a str; a NUL byte is refused (the system would end the path there)."""
    text = _os.fsdecode(value)
    if "\0" in text:
        raise FrostError("%s: the path %r contains a NUL byte, which no file name may hold"
                         % (keyword, text))
    return text


def _path(value: Optional[PathLike], keyword: str) -> Optional[str]:
    return None if value is None else _fspath(value, keyword)


def _target(output: Optional[PathLike], saved_model: Optional[PathLike]) -> Tuple[str, bool]:
    """Where a graph job writes: (path or "" for bytes, whether a SavedModel directory)."""
    if output is not None and saved_model is not None:
        raise FrostError("give output (a GraphDef file) or saved_model (a directory), not both")
    if saved_model is not None:
        return _fspath(saved_model, "saved_model"), True
    return _path(output, "output") or "", False


def _document(text: str) -> Dict[str, Any]:
    """A tool's JSON document (frost-verify, frost-diff, frost-inspect --json) as a dict."""
    document: Dict[str, Any] = _json.loads(text)
    return document


def _warn(warnings: List[str]) -> None:
    for line in warnings:
        _warnings.warn(line, FrostWarning, stacklevel=3)


def _bind(bind: Union[None, Dict[str, Any], Iterable[str]]) -> List[str]:
    if isinstance(bind, dict):
        return ["%s=%s" % (k, str(v).lower() if isinstance(v, bool) else v)
                for k, v in bind.items()]
    return _names(bind)


def _rename(rename: Union[None, Dict[str, str], Iterable[str]]) -> List[str]:
    if isinstance(rename, dict):
        return ["%s:%s" % (k, v) for k, v in rename.items()]
    return _names(rename)


def _freeze_options(outputs: Names, checkpoint: Optional[PathLike], signature: Optional[str],
                    ema: Union[bool, str], bind: Union[None, Dict[str, Any], Iterable[str]],
                    rename: Union[None, Dict[str, str], Iterable[str]], only: Names,
                    except_: Names, tags: Names, more: Dict[str, Any]) -> Dict[str, object]:
    """The keywords of how a model is frozen, as the extension takes them."""
    options: Dict[str, object] = dict(outputs=_names(outputs),
                   checkpoint=_path(checkpoint, "checkpoint"), signature=signature,
                   ema=("ExponentialMovingAverage" if ema is True else ema) or None,
                   bind=_bind(bind), rename=_rename(rename), only=_names(only),
                   except_=_names(except_), tags=_names(tags) or None)
    for key, value in more.items():
        if key not in _FREEZE_FLAGS:
            raise TypeError("unexpected keyword argument %r" % key)
        if key == "fix_input_shapes":
            value = _shape_items(value)
        elif key == "batch_size":
            value = _batch_size(value)
        options[key] = _names(value) if key == "initializer_nodes" else value
    return options


def _shape_items(shapes: Optional[Dict[str, Iterable[int]]]) -> List[str]:
    """{"image": [1, 224, 224, 3]} as --input-shape's NAME:D,D,... items."""
    return ["%s:%s" % (name, ",".join(str(int(d)) for d in dims))
            for name, dims in (shapes or {}).items()]


def _batch_size(value: Optional[int]) -> int:
    """--batch-size's N; 0 when not given."""
    if value is None:
        return 0
    if int(value) <= 0:
        raise ValueError("batch_size must be above 0, not %s" % value)
    return int(value)


#: freeze()'s and verify()'s less common keywords, as freeze-graph's flags.
_FREEZE_FLAGS = ("optimize", "initializer_nodes", "keep_devices", "strip_training_ops",
                 "drop_variable_writes", "keep_functional_control_flow", "toco_compatible",
                 "compute_in_float32", "pass_pipeline", "fix_input_shapes", "batch_size")


def _checks(seed: Optional[int], atol: Optional[float], rtol: Optional[float],
            input_shapes: Optional[Dict[str, Iterable[int]]],
            numeric: Optional[bool], eval_budget: Optional[int] = None,
            eval_max_bytes: Optional[int] = None,
            allow_unchecked: bool = False) -> Dict[str, object]:
    return dict(seed=seed, atol=atol, rtol=rtol, numeric=numeric, eval_budget=eval_budget,
                eval_max_bytes=eval_max_bytes, allow_unchecked=bool(allow_unchecked),
                input_shapes=None if input_shapes is None else
                {name: [int(d) for d in shape] for name, shape in input_shapes.items()})


@overload
def freeze(model: ModelData, outputs: Names = None, *, checkpoint: Optional[PathLike] = None,
           signature: Optional[str] = None, ema: Union[bool, str] = False,
           bind: Union[None, Dict[str, Any], Iterable[str]] = None,
           rename: Union[None, Dict[str, str], Iterable[str]] = None, only: Names = None,
           except_: Names = None, tags: Names = None, optimize: bool = False,
           verify: bool = False, eval_budget: Optional[int] = None,
           eval_max_bytes: Optional[int] = None, allow_unchecked: bool = False,
           output: Optional[PathLike] = None, saved_model: Optional[PathLike] = None,
           text: bool = False, report: Optional[PathLike] = None, **flags: Any) -> Optional[bytes]: ...


@overload
def freeze(model: Any, outputs: Names = None, *, checkpoint: Optional[PathLike] = None,
           signature: Optional[str] = None, ema: Union[bool, str] = False,
           bind: Union[None, Dict[str, Any], Iterable[str]] = None,
           rename: Union[None, Dict[str, str], Iterable[str]] = None, only: Names = None,
           except_: Names = None, tags: Names = None, optimize: bool = False,
           verify: bool = False, eval_budget: Optional[int] = None,
           eval_max_bytes: Optional[int] = None, allow_unchecked: bool = False,
           output: Optional[PathLike] = None, saved_model: Optional[PathLike] = None,
           text: bool = False, report: Optional[PathLike] = None, **flags: Any) -> Any: ...


def freeze(model: ModelLike, outputs: Names = None, *, checkpoint: Optional[PathLike] = None,
           signature: Optional[str] = None, ema: Union[bool, str] = False,
           bind: Union[None, Dict[str, Any], Iterable[str]] = None,
           rename: Union[None, Dict[str, str], Iterable[str]] = None, only: Names = None,
           except_: Names = None, tags: Names = None, optimize: bool = False,
           verify: bool = False, eval_budget: Optional[int] = None,
           eval_max_bytes: Optional[int] = None, allow_unchecked: bool = False,
           output: Optional[PathLike] = None, saved_model: Optional[PathLike] = None,
           text: bool = False, report: Optional[PathLike] = None, **flags: Any) -> Any:
    """Freezes a model as freeze-graph does (docs/freeze-graph.md).

    model: a checkpoint prefix or directory, a .meta, a GraphDef (.pb/.pbtxt) or a SavedModel
      directory; or a GraphDef/MetaGraphDef as bytes or object (then name the checkpoint).
    outputs: node or tensor names ("logits", "add:0"), "collection:NAME", "signature:NAME".
    checkpoint: the checkpoint to read (default: the model's own).
    signature: a SavedModel signature whose outputs to keep when outputs is not given.
    ema: True (or the EMA's name) freezes the moving averages of averaged variables.
    bind: placeholders to replace by constants, {"is_training": False} or ["is_training=false"].
    rename: graph variables read from other checkpoint keys, {"var": "key"} or ["var:key"].
    only, except_: variables to freeze only / to leave variables.
    tags: the SavedModel meta graph's tags (default: serve).
    optimize: then optimize for inference, as freeze-graph --optimize.
    verify: check the frozen graph first, as frost-verify does; a finding, or an output it
      could not compute (an op without a kernel), raises FrostError and nothing is written.
    allow_unchecked: with verify, pass what was checked when an output could not be
      computed, as freeze-graph --verify --allow-unchecked.
    eval_budget, eval_max_bytes: what verify's runs may spend, as freeze-graph's
      --eval-budget and --eval-max-bytes.
    output: write the frozen GraphDef there (atomically) and return None.
    saved_model: instead, write a serving SavedModel directory holding it there (atomically;
      freeze-graph --emit saved_model) and return None.
    text: text format (pbtxt) instead of binary.
    report: write freeze-graph's JSON report there (docs/freeze-graph.md).
    **flags: freeze-graph's other options by their Python names: initializer_nodes,
      keep_devices, strip_training_ops, drop_variable_writes, keep_functional_control_flow,
      toco_compatible, compute_in_float32, pass_pipeline; fix_input_shapes
      ({"image": [1, 224, 224, 3]}) and batch_size (N), as --input-shape and --batch-size.

    Returns the frozen GraphDef's bytes, byte for byte freeze-graph's, unless output is given;
    for a model given as a GraphDef, MetaGraphDef or tf.Graph, a GraphDef object of the same
    protobuf classes (unless text).
    """
    options = _freeze_options(outputs, checkpoint, signature, ema, bind, rename, only, except_,
                              tags, flags)
    options["optimize"] = bool(optimize)
    checks = _checks(None, None, None, None, None, eval_budget, eval_max_bytes, allow_unchecked)
    target, as_saved_model = _target(output, saved_model)
    result, warned = _frost.freeze(_model(model, "model"), options, checks, bool(verify),
                                   target, bool(text), as_saved_model,
                                   _path(report, "report") or "")
    _warn(warned)
    return _graph_result(model, result, text)


@overload
def transform(graph: ModelData, transforms: Union[str, Iterable[str]], inputs: Names = None,
              outputs: Names = None, *, output: Optional[PathLike] = None,
              saved_model: Optional[PathLike] = None, text: bool = False) -> Optional[bytes]: ...


@overload
def transform(graph: Any, transforms: Union[str, Iterable[str]], inputs: Names = None,
              outputs: Names = None, *, output: Optional[PathLike] = None,
              saved_model: Optional[PathLike] = None, text: bool = False) -> Any: ...


def transform(graph: ModelLike, transforms: Union[str, Iterable[str]], inputs: Names = None,
              outputs: Names = None, *, output: Optional[PathLike] = None,
              saved_model: Optional[PathLike] = None, text: bool = False) -> Any:
    """Runs TensorFlow's graph transforms as transform-graph does (docs/transforms.md).

    graph: a GraphDef: a path, bytes (binary or text) or a tf.compat.v1.GraphDef.
    transforms: "fold_constants(ignore_errors=true) strip_unused_nodes", or a list of such.
    inputs, outputs: the graph's inputs and outputs, as transform_graph's --inputs/--outputs.
    output: write the result there (atomically) and return None.
    saved_model: instead, write a serving SavedModel directory there (serving_default: the
      Placeholders in, outputs out) and return None.
    text: text format (pbtxt) instead of binary.

    Returns the transformed GraphDef's bytes, byte for byte transform-graph's, unless output
    is given; a GraphDef object for a GraphDef object (unless text). An unknown transform or
    parameter raises FrostError before anything runs.
    """
    if not isinstance(transforms, str):
        transforms = " ".join(transforms)
    target, as_saved_model = _target(output, saved_model)
    result, warned = _frost.transform(_model(graph, "graph"), transforms, _names(inputs),
                                      _names(outputs), target, bool(text), as_saved_model)
    _warn(warned)
    return _graph_result(graph, result, text)


@overload
def optimize_for_inference(graph: ModelData, inputs: Names, outputs: Names, *,
                           placeholder_types: Union[None, int, Iterable[int]] = None,
                           placeholder_to_const: Names = None, toco_compatible: bool = False,
                           compute_in_float32: bool = False,
                           fix_input_shapes: Optional[Dict[str, Iterable[int]]] = None,
                           batch_size: Optional[int] = None, output: Optional[PathLike] = None,
                           saved_model: Optional[PathLike] = None, text: bool = False) -> Optional[bytes]: ...


@overload
def optimize_for_inference(graph: Any, inputs: Names, outputs: Names, *,
                           placeholder_types: Union[None, int, Iterable[int]] = None,
                           placeholder_to_const: Names = None, toco_compatible: bool = False,
                           compute_in_float32: bool = False,
                           fix_input_shapes: Optional[Dict[str, Iterable[int]]] = None,
                           batch_size: Optional[int] = None, output: Optional[PathLike] = None,
                           saved_model: Optional[PathLike] = None, text: bool = False) -> Any: ...


def optimize_for_inference(graph: ModelLike, inputs: Names, outputs: Names, *,
                           placeholder_types: Union[None, int, Iterable[int]] = None,
                           placeholder_to_const: Names = None, toco_compatible: bool = False,
                           compute_in_float32: bool = False,
                           fix_input_shapes: Optional[Dict[str, Iterable[int]]] = None,
                           batch_size: Optional[int] = None, output: Optional[PathLike] = None,
                           saved_model: Optional[PathLike] = None, text: bool = False) -> Any:
    """Optimizes a frozen graph for inference as optimize-for-inference does, TensorFlow's
    optimize_for_inference.py with its keywords (docs/transforms.md).

    graph: a frozen GraphDef: a path, bytes (binary or text) or a tf.compat.v1.GraphDef.
    inputs, outputs: the graph's input and output node names (no ports).
    placeholder_types: DataType numbers (1 is float) of the Placeholders made for inputs that
      are not Placeholders already: one for all, or one per input.
    placeholder_to_const: "NAME=VALUE" items: bool Placeholders whose name contains NAME
      become constants.
    toco_compatible: only rewrites TensorFlow Lite's converter understands.
    compute_in_float32: compute half and bfloat16 graphs in float32.
    fix_input_shapes, batch_size: fix the inputs' shapes ({"image": [1, 224, 224, 3]}) and the
      first dimension of the others (N), then fold what became constant (--input_shape,
      --batch_size).
    output: write the result there (atomically) and return None.
    saved_model: instead, write a serving SavedModel directory there (serving_default: the
      inputs in, the outputs out) and return None.
    text: text format (pbtxt) instead of binary.

    Returns the optimized GraphDef's bytes, byte for byte optimize-for-inference's, unless
    output is given; a GraphDef object for a GraphDef object (unless text).
    """
    inputs, outputs = _names(inputs), _names(outputs)
    if not inputs or not outputs:
        raise FrostError("give the graph's inputs and outputs: optimize_for_inference(graph, "
                         "inputs=[...], outputs=[...])")
    if isinstance(placeholder_types, int):
        placeholder_types = [placeholder_types]
    target, as_saved_model = _target(output, saved_model)
    result, warned = _frost.optimize_for_inference(
        _model(graph, "graph"), inputs, outputs, [int(t) for t in placeholder_types or []],
        _names(placeholder_to_const), bool(toco_compatible), bool(compute_in_float32),
        _shape_items(fix_input_shapes), _batch_size(batch_size), target, bool(text),
        as_saved_model)
    _warn(warned)
    return _graph_result(graph, result, text)


def verify(frozen: ModelLike, source: ModelLike, outputs: Names = None, *,
           checkpoint: Optional[PathLike] = None, signature: Optional[str] = None,
           ema: Union[bool, str] = False,
           bind: Union[None, Dict[str, Any], Iterable[str]] = None,
           rename: Union[None, Dict[str, str], Iterable[str]] = None, only: Names = None,
           except_: Names = None, tags: Names = None, seed: int = 0,
           atol: Optional[float] = None, rtol: Optional[float] = None,
           input_shapes: Optional[Dict[str, Iterable[int]]] = None, numeric: bool = True,
           eval_budget: Optional[int] = None, eval_max_bytes: Optional[int] = None,
           allow_unchecked: bool = False, **flags: Any) -> Dict[str, Any]:
    """Checks that a frozen graph computes what its source computes, as frost-verify does
    (docs/verify.md), and returns its JSON report as a dict; report["passed"] is the verdict
    (False when an output could not be computed, unless allow_unchecked).

    frozen: the frozen GraphDef (path, bytes or object).
    source: what it was frozen from, as freeze()'s model; outputs and the keywords up to tags
      say how it was frozen, as for freeze() (and **flags, freeze()'s other options).
    seed: the seed of the random inputs.
    atol, rtol: an element holds when |frozen - source| <= atol + rtol * |source| (default by
      dtype: float32 1e-5 and 1e-5); an output whose source values all lie below atol is
      judged by rtol alone.
    allow_unchecked: pass what was checked when an output could not be computed (an op
      without a kernel), as frost-verify --allow-unchecked.
    input_shapes: {"input": [1, 224, 224, 3]} for dimensions an input leaves unknown.
    numeric: run both graphs and compare their outputs.
    eval_budget, eval_max_bytes: what each graph's run may spend, as frost-verify's
      --eval-budget (work units: elements and multiply-adds) and --eval-max-bytes (the
      largest tensor); over either, the report's finding names the node.
    """
    options = _freeze_options(outputs, checkpoint, signature, ema, bind, rename, only, except_,
                              tags, flags)
    text, warned = _frost.verify(_model(frozen, "frozen"), _model(source, "source"), options,
                                 _checks(int(seed), atol, rtol, input_shapes, bool(numeric),
                                         eval_budget, eval_max_bytes, allow_unchecked))
    _warn(warned)
    return _document(text)


def run(model: ModelLike, inputs: Optional[Dict[str, Any]] = None, outputs: Names = None, *,
        random_inputs: bool = False, seed: int = 0,
        input_shapes: Optional[Dict[str, Iterable[int]]] = None,
        checkpoint: Optional[PathLike] = None, signature: Optional[str] = None,
        tags: Names = None, compare_with: Optional[ModelLike] = None,
        atol: Optional[float] = None, rtol: Optional[float] = None,
        output: Optional[PathLike] = None, eval_budget: Optional[int] = None,
        eval_max_bytes: Optional[int] = None, **flags: Any) -> Dict[str, Any]:
    """Runs a model with Frost's evaluator, as frost-run does (docs/run.md), and returns its
    outputs as a dict of numpy arrays keyed by tensor name ("logits:0"). Needs numpy.

    model: a frozen GraphDef (run as it is), or a source model (checkpoint, .meta, SavedModel,
      GraphDef with checkpoint) frozen first as freeze() freezes it (signature, tags and
      **flags as for freeze()).
    inputs: {"x": array}: arrays (anything numpy.asarray takes) by input name, a placeholder
      ("x" or "x:0") or a signature's input key; each of the placeholder's dtype (not
      converted: a list of floats is float64) and shape.
    outputs: what to fetch, nodes ("logits", all its outputs) or tensors ("logits:0");
      default: the signature's outputs, else the graph's sinks.
    random_inputs: feed the inputs not given seeded random values (frost-verify's), with
      seed and input_shapes ({"x": [1, 224, 224, 3]} for unknown dimensions).
    compare_with: a second model run on the same inputs; an output outside atol + rtol *
      |its value| raises FrostError naming it (frost-verify's comparison).
    output: also write the outputs there as a .npz file.
    An output that cannot be computed (an op without a kernel) raises FrostError naming the op.
    """
    import io
    import numpy

    given = []
    for name, value in (inputs or {}).items():
        array = numpy.asarray(value, order="C")
        if array.dtype == object:  # Python strings: bytes, as TensorFlow holds them
            array = array.astype(bytes)
        buffer = io.BytesIO()
        numpy.save(buffer, array, allow_pickle=False)
        given.append((str(name), buffer.getvalue()))
    options = _freeze_options(outputs, checkpoint, signature, False, None, None, None, None,
                              tags, flags)
    other_options = _freeze_options(None, None, None, False, None, None, None, None, tags, {})
    other_options["outputs"] = options["outputs"]
    arrays, warned = _frost.run(
        _model(model, "model"), options, given, bool(random_inputs),
        _checks(int(seed), atol, rtol, input_shapes, True, eval_budget, eval_max_bytes),
        None if compare_with is None else _model(compare_with, "compare_with"), other_options,
        _path(output, "output") or "")
    _warn(warned)
    return {name: numpy.load(io.BytesIO(data), allow_pickle=False) for name, data in arrays}


def diff(a: ModelLike, b: ModelLike, *, ignore_attrs: Names = None,
         ignore_devices: bool = False, atol: float = 0.0, names_only: bool = False,
         signature: Optional[str] = None, tags: Names = None,
         html: Optional[PathLike] = None) -> Dict[str, Any]:
    """Compares two graphs node by node as frost-diff does, and returns its JSON document as a
    dict (schema in docs/verify.md); document["identical"] says whether they are the same.

    a, b: GraphDefs, MetaGraphDefs or SavedModels (paths, bytes or objects).
    ignore_attrs: attributes neither compared nor used to pair nodes ("_output_shapes").
    ignore_devices: do not compare devices.
    atol: tensor elements that differ by at most this are equal (default: bit for bit).
    names_only: pair nodes by name only (a renamed node is removed and added).
    signature: compare only this signature.
    tags: the SavedModel meta graph's tags (default: serve).
    html: also write a page showing both graphs side by side there.
    """
    return _document(
        _frost.diff(_model(a, "a"), _model(b, "b"), _names(ignore_attrs), bool(ignore_devices), float(atol),
                    bool(names_only), signature or "", _names(tags), _path(html, "html") or ""))


def inspect_checkpoint(path: PathLike, tensors: Names = None, *, values: bool = False,
                       verify_checksums: bool = True) -> Dict[str, Any]:
    """What frost-inspect checkpoint --json prints, as a dict (schema in docs/inspect.md).

    path: a checkpoint prefix, one of its files, or a directory (its latest checkpoint).
    tensors: variables whose exact values to include (all of them with values=True).
    verify_checksums: check each value's CRC as it is read.

    {"checkpoint": prefix, "format": "V2", "variables": [{"name", "dtype", "shape", ...}], ...}
    Strings from the file are byte strings: s.encode("latin-1") gives the bytes back.
    """
    return _document(_frost.inspect_checkpoint(_fspath(path, "path"), _names(tensors), bool(values),
                                               bool(verify_checksums)))


def summarize(model: ModelLike, *, tags: Names = None) -> Dict[str, Any]:
    """What frost-inspect graph --json prints, as a dict (schema in docs/inspect.md): inputs,
    candidate outputs, op histogram, variables, and a MetaGraph's signatures and collections.

    model: a GraphDef, MetaGraphDef or SavedModel (file or directory), bytes, or an object.
    tags: the SavedModel meta graph's tags (default: serve).
    """
    return _document(_frost.summarize(_model(model, "model"), _names(tags)))


# The API alone in the package's namespace (dir(frost)): no typing names.
del TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Union, overload
