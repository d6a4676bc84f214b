//===- GraphPictureHtml.cpp - A graph drawn as one HTML page --------------===//
//
// The picture laid out (GraphLayout) as inline SVG, with its style and
// script inline, so the page opens offline and its bytes depend on the
// panels only.
//
//===----------------------------------------------------------------------===//
#include "GraphPictureInternal.h"

#include "frost/Inspect/GraphLayout.h"
#include "frost/Inspect/ValueFormat.h"
#include "frost/IR/Graph.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace frost::inspect {

using namespace picture;

namespace {

/// A coordinate, to the pixel.
std::string px(double V) { return std::to_string(std::lround(V)); }

} // namespace

//===----------------------------------------------------------------------===//
// HTML
//===----------------------------------------------------------------------===//

namespace {

constexpr double CharWidth = 6.7; // 11px monospace
constexpr double LineHeight = 14;
constexpr size_t MaxLabelChars = 36;

/// What a node's details show of an attribute value: short, one line.
std::string attrText(const tensorflow::AttrValue &A) {
  auto cut = [](std::string S) {
    return numChars(S) > 80 ? keepTail(S, 80) : S; // long strings keep their end
  };
  switch (A.value_case()) {
  case tensorflow::AttrValue::kS:
    return cut("\"" + displayText(A.s()) + "\"");
  case tensorflow::AttrValue::kI:
    return std::to_string(A.i());
  case tensorflow::AttrValue::kF:
    return formatFloat(A.f(), Style::Text);
  case tensorflow::AttrValue::kB:
    return A.b() ? "true" : "false";
  case tensorflow::AttrValue::kType:
    return dataTypePythonName(A.type());
  case tensorflow::AttrValue::kShape:
    return formatPartialShape(A.shape());
  case tensorflow::AttrValue::kTensor:
    return "tensor " + dataTypePythonName(A.tensor().dtype()) + " " +
           formatPartialShape(A.tensor().tensor_shape());
  case tensorflow::AttrValue::kFunc:
    return "function " + displayText(A.func().name());
  case tensorflow::AttrValue::kPlaceholder:
    return "$" + displayText(A.placeholder());
  case tensorflow::AttrValue::kList: {
    const auto &L = A.list();
    std::vector<std::string> Items;
    for (const std::string &S : L.s())
      Items.push_back("\"" + displayText(S) + "\"");
    for (int64_t I : L.i())
      Items.push_back(std::to_string(I));
    for (float F : L.f())
      Items.push_back(formatFloat(F, Style::Text));
    for (bool B : L.b())
      Items.push_back(B ? "true" : "false");
    for (int T : L.type())
      Items.push_back(dataTypePythonName(static_cast<tensorflow::DataType>(T)));
    for (const auto &S : L.shape())
      Items.push_back(formatPartialShape(S));
    for (const auto &T : L.tensor())
      Items.push_back("tensor " + dataTypePythonName(T.dtype()));
    for (const auto &F : L.func())
      Items.push_back(displayText(F.name()));
    std::string Text = "[";
    for (size_t I = 0; I < Items.size(); ++I) {
      if (I == 8) {
        Text += ", ... (" + std::to_string(Items.size()) + " items)";
        break;
      }
      Text += (I ? ", " : "") + Items[I];
    }
    return cut(Text + "]");
  }
  default:
    return "";
  }
}

/// Writes {"n": name, "o": op, "i": [inputs], "a": [[key, value]], ...}.
void writeNodeJson(const PictureNode &PN, llvm::raw_ostream &OS) {
  const Node &N = *PN.N;
  OS << "{\"n\":" << jsonText(N.name()) << ",\"o\":" << jsonText(N.op())
     << ",\"k\":" << jsonText(opKindName(PN.Kind));
  if (PN.OnPath)
    OS << ",\"p\":1";
  if (PN.Mark != NodeMark::None)
    OS << ",\"m\":" << jsonText(markStyle(PN.Mark).Name);
  if (!N.device().empty())
    OS << ",\"d\":" << jsonText(N.device());
  if (!PN.ConstText.empty())
    OS << ",\"c\":" << jsonText(PN.ConstText);
  OS << ",\"i\":[";
  for (size_t I = 0; I < N.inputs().size(); ++I) {
    const Input &In = N.input(I);
    OS << (I ? "," : "") << jsonText(Node::formatInput(In.Src->name(), In.Port));
  }
  OS << "],\"a\":[";
  bool First = true;
  for (const auto &[Key, Value] : N.attrs()) {
    OS << (First ? "" : ",") << "[" << jsonText(Key) << "," << jsonText(attrText(Value)) << "]";
    First = false;
  }
  OS << "]}";
}

/// The lines drawn in a node's box: op, name (its end when long), and a
/// Const's dtype, shape and bytes.
std::vector<std::string> boxLines(const PictureNode &PN) {
  std::vector<std::string> Lines = {keepTail(displayText(PN.N->op()), MaxLabelChars),
                                    keepTail(displayText(PN.N->name()), MaxLabelChars)};
  if (!PN.ConstText.empty())
    Lines.push_back(keepTail(PN.ConstText, MaxLabelChars));
  return Lines;
}

std::string edgePath(const EdgeRoute &R, bool SameNode, double BoxWidth) {
  const LayoutPoint &A = R.Points.front(), &B = R.Points.back();
  std::string D = "M" + px(A.X) + " " + px(A.Y);
  if (R.Kind == RouteKind::Polyline) {
    for (size_t I = 1; I < R.Points.size(); ++I)
      D += "L" + px(R.Points[I].X) + " " + px(R.Points[I].Y);
    return D;
  }
  if (SameNode || B.Y <= A.Y) {
    // Upwards (a loop's back edge): out below, around the right side, in above.
    double Side = (SameNode ? BoxWidth / 2 : 0) + 60;
    D += "C" + px(A.X + Side) + " " + px(A.Y + 60) + " " + px(B.X + Side) + " " + px(B.Y - 60);
  } else {
    double Bend = std::max(40.0, (B.Y - A.Y) / 3);
    D += "C" + px(A.X) + " " + px(A.Y + Bend) + " " + px(B.X) + " " + px(B.Y - Bend);
  }
  return D + " " + px(B.X) + " " + px(B.Y);
}

void writePanel(const GraphPanel &P, size_t Index, llvm::raw_ostream &OS,
                std::array<size_t, NumOpKinds> &KindCounts, std::array<bool, 4> &MarksSeen,
                bool &AnyPath) {
  Picture Pic = buildPicture(P);
  std::vector<LayoutBox> Boxes;
  std::vector<std::vector<std::string>> Lines;
  Boxes.reserve(Pic.Nodes.size());
  for (size_t I = 0; I < Pic.Nodes.size(); ++I) {
    const PictureNode &PN = Pic.Nodes[I];
    ++KindCounts[static_cast<size_t>(PN.Kind)];
    MarksSeen[static_cast<size_t>(PN.Mark)] = true;
    Lines.push_back(boxLines(PN));
    size_t Chars = 0;
    for (const std::string &L : Lines.back())
      Chars = std::max(Chars, numChars(L));
    Boxes.push_back({std::max(56.0, static_cast<double>(Chars) * CharWidth + 16),
                     static_cast<double>(Lines.back().size()) * LineHeight + 8,
                     static_cast<bool>(Pic.IsInput[I])});
  }
  AnyPath |= Pic.NumOnPath > 0;
  std::vector<LayoutEdge> LEdges;
  LEdges.reserve(Pic.Edges.size());
  for (const PictureEdge &E : Pic.Edges)
    LEdges.push_back({E.From, E.To, E.Port == ControlPort});
  GraphLayout L = layoutGraph(Boxes, LEdges);

  std::string Id = "p" + std::to_string(Index);
  OS << "<section class=\"panel\" id=\"" << Id << "\">\n<div class=\"ph\"><b>"
     << htmlText(P.Title) << "</b> " << plural(Pic.Nodes.size(), "node") << ", "
     << plural(Pic.Edges.size(), "edge") << ", " << Pic.NumOnPath << " on an input-output path";
  if (Pic.NumFunctions)
    OS << "; " << functionsNote(Pic.NumFunctions);
  OS << "</div>\n";
  if (Pic.Nodes.empty())
    OS << "<div class=\"empty\">empty graph</div>\n";
  // Where a view too big to fit opens: at the first input, else the top.
  double FocusX = L.Width / 2;
  for (size_t I = 0; I < Pic.Nodes.size(); ++I)
    if (Pic.IsInput[I] || (L.Layers[I] == 0 && FocusX == L.Width / 2)) {
      FocusX = L.Centers[I].X;
      if (Pic.IsInput[I])
        break;
    }
  OS << "<svg class=\"view\" data-w=\"" << px(L.Width) << "\" data-h=\"" << px(L.Height)
     << "\" data-fx=\"" << px(FocusX) << "\">\n<defs>";
  for (const char *Kind : {"", "p"})
    OS << "<marker id=\"" << Id << "a" << Kind
       << "\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" "
          "markerHeight=\"7\" orient=\"auto\"><path d=\"M0 0L10 5L0 10z\" fill=\""
       << (*Kind ? PathColour : "#999999") << "\"/></marker>";
  OS << "</defs>\n<g class=\"vp\">\n<g class=\"edges\">\n";
  for (size_t E = 0; E < Pic.Edges.size(); ++E) {
    const PictureEdge &PE = Pic.Edges[E];
    const EdgeRoute &R = L.Routes[E];
    OS << "<path class=\"e" << (PE.Port == ControlPort ? " c" : "") << (PE.OnPath ? " p" : "")
       << "\" d=\"" << edgePath(R, PE.From == PE.To, Boxes[PE.From].Width)
       << "\" marker-end=\"url(#" << Id << "a" << (PE.OnPath ? "p" : "") << ")\"/>\n";
    if (PE.Port > 0)
      OS << "<text class=\"port\" x=\"" << px(R.Points.front().X + 4) << "\" y=\""
         << px(R.Points.front().Y + 10) << "\">:" << PE.Port << "</text>\n";
  }
  OS << "</g>\n<g class=\"nodes\">\n";
  for (size_t I = 0; I < Pic.Nodes.size(); ++I) {
    const PictureNode &PN = Pic.Nodes[I];
    const LayoutBox &B = Boxes[I];
    double Left = L.Centers[I].X - B.Width / 2, Top = L.Centers[I].Y - B.Height / 2;
    OS << "<g class=\"n k" << static_cast<size_t>(PN.Kind) << (PN.OnPath ? " p" : "");
    if (PN.Mark != NodeMark::None)
      OS << " " << markStyle(PN.Mark).Class;
    OS << "\" data-i=\"" << I << "\"><title>" << htmlText(PN.N->op()) << " "
       << htmlText(PN.N->name()) << "</title>";
    if (PN.Mark != NodeMark::None)
      OS << "<rect class=\"mk\" x=\"" << px(Left - 5) << "\" y=\"" << px(Top - 5)
         << "\" width=\"" << px(B.Width + 10) << "\" height=\"" << px(B.Height + 10)
         << "\" rx=\"8\"/>";
    OS << "<rect class=\"b\" x=\"" << px(Left) << "\" y=\"" << px(Top) << "\" width=\""
       << px(B.Width) << "\" height=\"" << px(B.Height) << "\" rx=\"5\"/>";
    for (size_t K = 0; K < Lines[I].size(); ++K) {
      OS << "<text";
      if (K != 1)
        OS << " class=\"" << (K == 0 ? "o" : "c") << "\"";
      OS << " x=\"" << px(L.Centers[I].X) << "\" y=\""
         << px(Top + 4 + LineHeight * static_cast<double>(K) + 11) << "\">"
         << htmlText(Lines[I][K]) << "</text>";
    }
    OS << "</g>\n";
  }
  OS << "</g>\n</g>\n</svg>\n<script type=\"application/json\" class=\"data\">[";
  for (size_t I = 0; I < Pic.Nodes.size(); ++I) {
    OS << (I ? ",\n" : "\n");
    writeNodeJson(Pic.Nodes[I], OS);
  }
  OS << "]</script>\n</section>\n";
}

const char *const PageStyle = R"css(
html,body{margin:0;height:100%;font:13px system-ui,-apple-system,"Segoe UI",sans-serif;color:#222}
body{display:flex;flex-direction:column}
header{padding:6px 12px;border-bottom:1px solid #ccc;display:flex;flex-wrap:wrap;gap:4px 18px;align-items:center}
h1{font-size:15px;margin:0}
.legend{display:flex;flex-wrap:wrap;gap:4px 12px}
.legend span{display:inline-flex;align-items:center;gap:4px}
.sw{width:14px;height:11px;border:1px solid #555;border-radius:3px;display:inline-block}
.sw.path{background:#fff;border:2.5px solid #1d4ed8}
.sw.mark{background:#fff;border-width:3px}
.hint{color:#666;font-size:12px}
main{flex:1;display:flex;min-height:0}
.panel{flex:1;display:flex;flex-direction:column;min-width:0;border-right:1px solid #ccc;position:relative}
.ph{padding:4px 8px;background:#f4f4f4;border-bottom:1px solid #ddd;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.empty{position:absolute;top:40px;left:0;right:0;text-align:center;color:#888}
svg.view{flex:1;width:100%;min-height:0;display:block;cursor:grab;background:#fff;user-select:none}
svg.view.drag{cursor:grabbing}
.n{cursor:pointer}
.n .b{stroke:#555;stroke-width:1}
.n text{font:11px ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;text-anchor:middle;fill:#111;pointer-events:none}
.n text.o{font-weight:bold}
.n text.c{fill:#444}
.n.p .b{stroke:#1d4ed8;stroke-width:2.5}
.n.sel .b{stroke:#000;stroke-width:3}
.mk{fill:none;stroke-width:4}
.mr .mk{stroke-dasharray:7 3}
.e{fill:none;stroke:#999;stroke-width:1}
.e.c{stroke-dasharray:4 3}
.e.p{stroke:#1d4ed8;stroke-width:2}
.port{font:9px sans-serif;fill:#666}
#details{position:fixed;right:12px;bottom:12px;width:min(440px,45vw);max-height:50vh;overflow:auto;background:#fff;border:1px solid #888;border-radius:6px;padding:8px 10px;box-shadow:0 2px 10px rgba(0,0,0,.25);font-size:12px}
#details .dt{font-weight:bold;font-size:14px}
#details .dn{font-family:ui-monospace,"DejaVu Sans Mono",monospace;word-break:break-all;margin-bottom:4px}
#details table{border-collapse:collapse}
#details td{vertical-align:top;padding:1px 6px 1px 0;font-family:ui-monospace,"DejaVu Sans Mono",monospace;word-break:break-all}
#details td:first-child{color:#666;white-space:nowrap;font-family:inherit}
)css";

const char *const PageScript = R"js(
(function () {
  'use strict';
  var body = document.body, box = document.getElementById('details'), pinned = null;
  window.addEventListener('error', function (e) { body.setAttribute('data-error', String(e.message)); });
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c];
    });
  }
  function row(k, v) { return '<tr><td>' + esc(k) + '</td><td>' + esc(v) + '</td></tr>'; }
  function show(d) {
    var h = '<div class="dt">' + esc(d.o) + '</div><div class="dn">' + esc(d.n) + '</div><table>';
    h += row('kind', d.k + (d.p ? ', on an input-output path' : ''));
    if (d.m) h += row('diff', d.m);
    if (d.c) h += row('value', d.c);
    if (d.d) h += row('device', d.d);
    d.i.forEach(function (x, j) { h += row(j ? '' : 'inputs', x); });
    d.a.forEach(function (a) { h += row(a[0], a[1]); });
    box.innerHTML = h + '</table>';
    box.hidden = false;
  }
  var panels = [];
  document.querySelectorAll('section.panel').forEach(function (sec) {
    var svg = sec.querySelector('svg.view'), vp = svg.querySelector('.vp');
    var data = JSON.parse(sec.querySelector('script.data').textContent);
    var W = +svg.getAttribute('data-w'), H = +svg.getAttribute('data-h');
    var FX = +svg.getAttribute('data-fx');
    var v = {s: 1, x: 0, y: 0};
    function apply() { vp.setAttribute('transform', 'translate(' + v.x + ',' + v.y + ') scale(' + v.s + ')'); }
    function fit() {
      var r = svg.getBoundingClientRect(), rw = r.width || 800, rh = r.height || 600;
      // The whole graph when it stays readable, else its top at a readable
      // size, around the first input.
      var all = Math.min(1, rw / W, rh / H);
      v.s = all >= 0.5 ? all : Math.min(1, Math.max(0.6, rw / W));
      v.x = W * v.s <= rw ? (rw - W * v.s) / 2 : Math.min(0, Math.max(rw - W * v.s, rw / 2 - FX * v.s));
      v.y = H * v.s <= rh ? (rh - H * v.s) / 2 : 0;
      apply();
    }
    svg.addEventListener('wheel', function (e) {
      e.preventDefault();
      var r = svg.getBoundingClientRect(), px = e.clientX - r.left, py = e.clientY - r.top;
      var s = Math.min(8, Math.max(0.02, v.s * Math.exp(-e.deltaY * 0.0015)));
      v.x = px - (px - v.x) * s / v.s;
      v.y = py - (py - v.y) * s / v.s;
      v.s = s;
      apply();
    }, {passive: false});
    var drag = null;
    svg.addEventListener('pointerdown', function (e) {
      drag = {x: e.clientX, y: e.clientY, vx: v.x, vy: v.y, moved: false};
    });
    svg.addEventListener('pointermove', function (e) {
      if (!drag) return;
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      if (!drag.moved) { drag.moved = true; svg.classList.add('drag'); svg.setPointerCapture(e.pointerId); }
      v.x = drag.vx + dx;
      v.y = drag.vy + dy;
      apply();
    });
    function end() { if (drag && drag.moved) svg.classList.remove('drag'); }
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', function () { end(); drag = null; });
    svg.addEventListener('click', function (e) {
      var moved = drag && drag.moved;
      drag = null;
      if (moved) return;
      var g = e.target.closest('.n');
      if (pinned) pinned.classList.remove('sel');
      pinned = g;
      if (!g) { box.hidden = true; return; }
      g.classList.add('sel');
      show(data[+g.getAttribute('data-i')]);
    });
    svg.addEventListener('mouseover', function (e) {
      var g = e.target.closest('.n');
      if (g && !pinned) show(data[+g.getAttribute('data-i')]);
    });
    svg.addEventListener('dblclick', fit);
    fit();
    panels.push({svg: svg, vp: vp, data: data});
  });
  body.setAttribute('data-ready', String(panels.length));
  // file.html#selftest: click the first node, zoom once, and record what happened.
  if (location.hash === '#selftest' && panels.length && panels[0].data.length) {
    var p = panels[0], before = p.vp.getAttribute('transform');
    var r = p.svg.getBoundingClientRect();
    p.svg.querySelector('.n rect.b').dispatchEvent(new MouseEvent('click', {bubbles: true}));
    p.svg.dispatchEvent(new WheelEvent('wheel', {deltaY: -200, clientX: r.left + 10, clientY: r.top + 10, bubbles: true, cancelable: true}));
    body.setAttribute('data-selftest', 'details=' + box.textContent + ' zoomed=' + (p.vp.getAttribute('transform') !== before));
  }
})();
)js";

} // namespace

std::string graphHtml(llvm::ArrayRef<GraphPanel> Panels, llvm::StringRef PageTitle) {
  std::string Body;
  llvm::raw_string_ostream BodyOS(Body);
  std::array<size_t, NumOpKinds> KindCounts{};
  std::array<bool, 4> MarksSeen{};
  bool AnyPath = false;
  for (size_t I = 0; I < Panels.size(); ++I)
    writePanel(Panels[I], I, BodyOS, KindCounts, MarksSeen, AnyPath);

  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
     << htmlText(PageTitle) << "</title>\n<meta name=\"generator\" content=\"frost-inspect\">\n"
     << "<style>" << PageStyle;
  for (size_t K = 0; K < NumOpKinds; ++K)
    OS << ".k" << K << " .b{fill:" << KindColours[K] << "}";
  for (NodeMark M : {NodeMark::Added, NodeMark::Removed, NodeMark::Changed})
    OS << "." << markStyle(M).Class << " .mk{stroke:" << markStyle(M).Colour << "}";
  OS << "\n</style>\n</head>\n<body>\n<header>\n<h1>"
     << htmlText(PageTitle) << "</h1>\n<div class=\"legend\">";
  // Only what the page shows: a page without nodes has no swatches.
  for (size_t K = 0; K < NumOpKinds; ++K)
    if (KindCounts[K])
      OS << "<span><i class=\"sw\" style=\"background:" << KindColours[K] << "\"></i>"
         << opKindName(static_cast<OpKind>(K)) << " (" << KindCounts[K] << ")</span>";
  if (AnyPath)
    OS << "<span><i class=\"sw path\"></i>on an input-output path</span>";
  for (NodeMark M : {NodeMark::Added, NodeMark::Removed, NodeMark::Changed})
    if (MarksSeen[static_cast<size_t>(M)])
      OS << "<span><i class=\"sw mark\" style=\"border-color:" << markStyle(M).Colour
         << (M == NodeMark::Removed ? ";border-style:dashed" : "") << "\"></i>"
         << markStyle(M).Name << "</span>";
  OS << "<span><svg width=\"30\" height=\"8\"><path d=\"M0 4H30\" stroke=\"#777\" "
        "stroke-dasharray=\"4 3\"/></svg>control edge</span>"
     << "</div>\n<div class=\"hint\">wheel: zoom, drag: pan, double-click: fit, "
        "hover or click a node: details</div>\n</header>\n<main>\n"
     << Body << "</main>\n<aside id=\"details\" hidden></aside>\n<script>" << PageScript
     << "</script>\n</body>\n</html>\n";
  return Out;
}

} // namespace frost::inspect
