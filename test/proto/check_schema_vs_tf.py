#!/usr/bin/env python3
"""Checks Frost's .proto schemas (proto/*.proto) against the installed TensorFlow.

For every message and enum that TensorFlow declares in the files Frost mirrors
(and in their TensorFlow dependencies), the Frost schema must declare the same
full name with the same fields (name, number, type, label, type name, oneof,
presence, packed encoding, deprecated flag), the same reserved numbers/names,
the same map-entry status, and the same enum values. Frost must not declare
extra messages/enums in package `tensorflow`.

Exit status: 0 on success or when TensorFlow is not importable, 1 otherwise.
Environment: PROTOC overrides the protoc binary; PROTO_INCLUDE adds a
directory (os.pathsep-separated) holding google/protobuf/*.proto.
"""

import importlib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
PROTO_DIR = os.path.join(REPO, "proto")

# TensorFlow modules whose files Frost mirrors. Their transitive dependencies
# inside package `tensorflow` are checked as well. Each entry lists
# alternative module paths (TF moves files around between releases).
TF_MODULES = [
    ["tensorflow.core.framework.types_pb2"],
    ["tensorflow.core.framework.tensor_pb2"],
    ["tensorflow.core.framework.tensor_shape_pb2"],
    ["tensorflow.core.framework.resource_handle_pb2"],
    ["tensorflow.core.framework.tensor_slice_pb2"],
    ["tensorflow.core.framework.graph_pb2"],
    ["tensorflow.core.framework.node_def_pb2"],
    ["tensorflow.core.framework.attr_value_pb2"],
    ["tensorflow.core.framework.versions_pb2"],
    ["tensorflow.core.framework.function_pb2"],
    ["tensorflow.core.example.example_pb2"],
    ["tensorflow.core.framework.op_def_pb2"],
    ["tensorflow.core.framework.full_type_pb2"],
    ["tensorflow.core.framework.graph_debug_info_pb2",
     "tsl.protobuf.graph_debug_info_pb2",
     "xla.tsl.protobuf.graph_debug_info_pb2"],
    ["tensorflow.core.framework.variable_pb2"],
    ["tensorflow.core.protobuf.meta_graph_pb2"],
    ["tensorflow.core.protobuf.saver_pb2"],
    ["tensorflow.core.protobuf.saved_model_pb2"],
    ["tensorflow.core.protobuf.saved_object_graph_pb2"],
    ["tensorflow.core.protobuf.trackable_object_graph_pb2"],
    ["tensorflow.core.protobuf.struct_pb2"],
    ["tensorflow.core.protobuf.tensor_bundle_pb2"],
    ["tensorflow.core.protobuf.fingerprint_pb2"],
    ["tensorflow.core.util.saved_tensor_slice_pb2"],
    ["tensorflow.python.training.checkpoint_state_pb2"],
]

PACKAGE = "tensorflow"


def load_tf_files(problems):
    """Returns the TF FileDescriptors to check, or None if TF is absent."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    try:
        importlib.import_module("tensorflow")
    except Exception:  # not installed, or broken install
        return None
    roots = []
    for alternatives in TF_MODULES:
        for name in alternatives:
            try:
                roots.append(importlib.import_module(name).DESCRIPTOR)
                break
            except ImportError:
                continue
        else:
            problems.append("cannot import any of %s from TensorFlow" % alternatives)
    # Transitive closure over dependencies declared in package `tensorflow`.
    seen = {}
    stack = list(roots)
    while stack:
        fd = stack.pop()
        if fd.name in seen:
            continue
        seen[fd.name] = fd
        stack.extend(d for d in fd.dependencies if d.package == PACKAGE)
    return [fd for fd in seen.values() if fd.package == PACKAGE]


def find_protoc():
    return os.environ.get("PROTOC") or shutil.which("protoc")


def wkt_include_dirs():
    """Directories that hold google/protobuf/any.proto."""
    cands = []
    extra = os.environ.get("PROTO_INCLUDE")
    if extra:
        cands.extend(extra.split(os.pathsep))
    cands += ["/usr/include", "/usr/local/include"]
    try:
        import grpc_tools  # optional; ships the well-known types
        cands.append(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))
    except ImportError:
        pass
    return [d for d in cands
            if os.path.isfile(os.path.join(d, "google", "protobuf", "any.proto"))]


def load_frost_files(problems):
    """Compiles Frost's protos and returns (FileDescriptorSet, DescriptorPool)."""
    from google.protobuf import descriptor_pb2, descriptor_pool

    protoc = find_protoc()
    if not protoc:
        problems.append("protoc not found (set PROTOC)")
        return None, None
    protos = sorted(f for f in os.listdir(PROTO_DIR) if f.endswith(".proto"))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "frost.desc")
        cmd = [protoc, "-I", PROTO_DIR]
        for d in wkt_include_dirs():
            cmd += ["-I", d]
        cmd += ["--include_imports", "--descriptor_set_out=" + out]
        cmd += [os.path.join(PROTO_DIR, p) for p in protos]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0 or res.stderr.strip():
            problems.append("protoc failed or warned:\n" + res.stderr.strip())
            if res.returncode != 0:
                return None, None
        fds = descriptor_pb2.FileDescriptorSet()
        with open(out, "rb") as fh:
            fds.ParseFromString(fh.read())
    pool = descriptor_pool.DescriptorPool()
    for fdp in fds.file:
        pool.Add(fdp)
    return fds, pool


def index_file(fdp, out_msgs, out_enums):
    """Maps full names to (DescriptorProto|EnumDescriptorProto, file name)."""
    def walk_msg(m, prefix):
        full = prefix + "." + m.name
        out_msgs[full] = (m, fdp.name)
        for e in m.enum_type:
            out_enums[full + "." + e.name] = (e, fdp.name)
        for n in m.nested_type:
            walk_msg(n, full)

    for e in fdp.enum_type:
        out_enums[fdp.package + "." + e.name] = (e, fdp.name)
    for m in fdp.message_type:
        walk_msg(m, fdp.package)


def field_signature(mproto, fproto, fdesc):
    """Everything about a field that affects wire or text compatibility."""
    from google.protobuf import descriptor_pb2 as dp

    oneof = None
    if fproto.HasField("oneof_index") and not fproto.proto3_optional:
        oneof = mproto.oneof_decl[fproto.oneof_index].name
    return {
        "name": fproto.name,
        "type": dp.FieldDescriptorProto.Type.Name(fproto.type),
        "label": dp.FieldDescriptorProto.Label.Name(fproto.label),
        "type_name": fproto.type_name.lstrip("."),
        "oneof": oneof,
        "has_presence": getattr(fdesc, "has_presence", None),
        "packed": getattr(fdesc, "is_packed", None),
        "deprecated": bool(fproto.options.deprecated),
    }


def reserved_of(proto, enum=False):
    ranges = set()
    for r in proto.reserved_range:
        # Message ranges are half-open, enum ranges are inclusive.
        end = r.end if enum else r.end - 1
        ranges.update(range(r.start, end + 1))
    return ranges, set(proto.reserved_name)


def compare_message(full, tf_m, fr_m, tf_desc, fr_desc, problems):
    if bool(tf_m.options.map_entry) != bool(fr_m.options.map_entry):
        problems.append("%s: map_entry differs (TF %s, Frost %s)"
                        % (full, tf_m.options.map_entry, fr_m.options.map_entry))
    tf_fields = {f.number: f for f in tf_m.field}
    fr_fields = {f.number: f for f in fr_m.field}
    for num in sorted(set(tf_fields) | set(fr_fields)):
        if num not in fr_fields:
            problems.append("%s: field %d (%s) missing in Frost"
                            % (full, num, tf_fields[num].name))
            continue
        if num not in tf_fields:
            problems.append("%s: field %d (%s) is not in TensorFlow"
                            % (full, num, fr_fields[num].name))
            continue
        a = field_signature(tf_m, tf_fields[num], tf_desc.fields_by_number[num])
        b = field_signature(fr_m, fr_fields[num], fr_desc.fields_by_number[num])
        if tf_m.options.map_entry:
            # Map entries are synthetic: proto2 gives their key/value
            # presence, proto3 does not, with no effect on map behaviour.
            del a["has_presence"], b["has_presence"]
        for key in a:
            if a[key] != b[key]:
                problems.append("%s: field %d %s differs: TF %r, Frost %r"
                                % (full, num, key, a[key], b[key]))
    tf_res, fr_res = reserved_of(tf_m), reserved_of(fr_m)
    if tf_res[0] != fr_res[0]:
        problems.append("%s: reserved numbers differ: TF %s, Frost %s"
                        % (full, sorted(tf_res[0]), sorted(fr_res[0])))
    if tf_res[1] != fr_res[1]:
        problems.append("%s: reserved names differ: TF %s, Frost %s"
                        % (full, sorted(tf_res[1]), sorted(fr_res[1])))


def compare_enum(full, tf_e, fr_e, problems):
    tf_vals = {v.name: v.number for v in tf_e.value}
    fr_vals = {v.name: v.number for v in fr_e.value}
    for name in sorted(set(tf_vals) | set(fr_vals)):
        if name not in fr_vals:
            problems.append("%s: value %s = %d missing in Frost"
                            % (full, name, tf_vals[name]))
        elif name not in tf_vals:
            problems.append("%s: value %s = %d is not in TensorFlow"
                            % (full, name, fr_vals[name]))
        elif tf_vals[name] != fr_vals[name]:
            problems.append("%s: value %s is %d in TF, %d in Frost"
                            % (full, name, tf_vals[name], fr_vals[name]))
    tf_res, fr_res = reserved_of(tf_e, enum=True), reserved_of(fr_e, enum=True)
    if tf_res != fr_res:
        problems.append("%s: reserved differs: TF %s, Frost %s"
                        % (full, (sorted(tf_res[0]), sorted(tf_res[1])),
                           (sorted(fr_res[0]), sorted(fr_res[1]))))


def main():
    problems = []
    tf_files = load_tf_files(problems)
    if tf_files is None:
        print("skipped: tensorflow not installed")
        return 0

    from google.protobuf import descriptor_pb2

    fds, pool = load_frost_files(problems)
    if fds is None:
        for p in problems:
            print("MISMATCH:", p)
        return 1

    tf_msgs, tf_enums, tf_desc_by_name = {}, {}, {}
    for fd in tf_files:
        fdp = descriptor_pb2.FileDescriptorProto()
        fd.CopyToProto(fdp)
        index_file(fdp, tf_msgs, tf_enums)
    # Message descriptor objects of TF, for presence/packed queries.
    def walk_desc(d):
        tf_desc_by_name[d.full_name] = d
        for n in d.nested_types:
            walk_desc(n)
    for fd in tf_files:
        for d in fd.message_types_by_name.values():
            walk_desc(d)

    fr_msgs, fr_enums = {}, {}
    for fdp in fds.file:
        if fdp.package == PACKAGE:
            index_file(fdp, fr_msgs, fr_enums)

    for full in sorted(tf_msgs):
        if full not in fr_msgs:
            problems.append("message %s (TF %s) missing in Frost"
                            % (full, tf_msgs[full][1]))
            continue
        compare_message(full, tf_msgs[full][0], fr_msgs[full][0],
                        tf_desc_by_name[full], pool.FindMessageTypeByName(full),
                        problems)
    for full in sorted(tf_enums):
        if full not in fr_enums:
            problems.append("enum %s (TF %s) missing in Frost"
                            % (full, tf_enums[full][1]))
            continue
        compare_enum(full, tf_enums[full][0], fr_enums[full][0], problems)
    for full in sorted(set(fr_msgs) - set(tf_msgs)):
        problems.append("message %s (Frost %s) is not in TensorFlow"
                        % (full, fr_msgs[full][1]))
    for full in sorted(set(fr_enums) - set(tf_enums)):
        problems.append("enum %s (Frost %s) is not in TensorFlow"
                        % (full, fr_enums[full][1]))

    if problems:
        for p in problems:
            print("MISMATCH:", p)
        print("%d mismatch(es) between Frost's schema and TensorFlow" % len(problems))
        return 1
    print("schema matches TensorFlow: %d messages, %d enums checked"
          % (len(tf_msgs), len(tf_enums)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
