//===- SetDevice.cpp - Place every node on one device ---------------------===//
//
// TensorFlow's graph_transforms set_device(device, if_default): every node's
// device becomes `device` (default "": cleared), or with `if-default=true`
// only the nodes that have none. Unlike TensorFlow, the nodes of library
// functions are placed too, as clear-devices clears them.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/EveryNode.h"

namespace frost {

namespace {

class SetDevicePass : public Pass {
  Option<std::string> Device{*this, "device",
                             "The device, e.g. /device:CPU:0 (default empty: no device)"};
  Option<bool> IfDefault{*this, "if-default", "Only on nodes that have no device", false};
  Statistic NumSet{*this, "devices-set", "Nodes whose device changed (graph and functions)"};

  absl::Status run(Model &M, PassContext &) override {
    every_node::forEveryNode(M.graph(), [&](auto &N, llvm::StringRef) {
      llvm::StringRef Current = every_node::deviceOf(N);
      if ((*IfDefault && !Current.empty()) || Current == *Device)
        return;
      every_node::setDeviceOf(N, *Device);
      ++NumSet;
    });
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createSetDevicePass() { return std::make_unique<SetDevicePass>(); }

} // namespace frost
