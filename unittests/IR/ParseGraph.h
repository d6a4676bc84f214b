//===- ParseGraph.h - A Graph from GraphDef text, for tests -----*- C++ -*-===//
#ifndef FROST_UNITTESTS_IR_PARSEGRAPH_H
#define FROST_UNITTESTS_IR_PARSEGRAPH_H

#include "frost/IR/Graph.h"

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace frost {

/// The graph of a text GraphDef; null (and a test failure) when it is invalid.
inline std::unique_ptr<Graph> parseGraph(const char *Text) {
  tensorflow::GraphDef Def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(Text, &Def));
  auto G = Graph::fromGraphDef(std::move(Def));
  EXPECT_TRUE(G.ok()) << G.status();
  return G.ok() ? *std::move(G) : nullptr;
}

} // namespace frost

#endif // FROST_UNITTESTS_IR_PARSEGRAPH_H
