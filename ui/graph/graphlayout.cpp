// SPDX-License-Identifier: MIT
#include "ui/graph/graphlayout.h"

#include <chrono>
#include <cstdio>
#include <mutex>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace TraceInspector {

namespace {

// Graphviz's layout engines keep global state (plugin lists, error buffers, static work
// arrays in dot): one layout at a time, process-wide.
std::mutex &graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

/// The one gvc context of the process, made on first use (call with graphvizMutex held).
/// Each gvContext() loads the plugin configuration, and gvFreeContext() does not free all
/// of what that allocated (Graphviz 2.42 loses ~40 KB per context, which LeakSanitizer
/// reports): a context per layout leaked on every layout. One context, kept for the life
/// of the process and reused by every layout, allocates that once.
GVC_t *sharedContext()
{
    static GVC_t *const gvc = gvContext();
    return gvc;
}

// cgraph takes non-const char * everywhere, but copies what it is given.
char *cstr(const char *text)
{
    return const_cast<char *>(text);
}

std::string inches(double points)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", points / 72.0);
    return buffer;
}

/// Owns the graph of one layout in the shared gvc context.
class Session
{
public:
    Session()
        : m_gvc(sharedContext())
    {
    }
    ~Session()
    {
        if (m_graph) {
            if (m_laidOut)
                gvFreeLayout(m_gvc, m_graph);
            agclose(m_graph);
        }
    }
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    GVC_t *gvc() const { return m_gvc; }
    Agraph_t *graph() const { return m_graph; }
    void open() { m_graph = agopen(cstr("g"), Agdirected, nullptr); }
    void setLaidOut() { m_laidOut = true; }

private:
    GVC_t *m_gvc = nullptr;
    Agraph_t *m_graph = nullptr;
    bool m_laidOut = false;
};

} // namespace

GraphLayoutResult layoutWithDot(const GraphLayoutRequest &request)
{
    GraphLayoutResult result;
    const auto started = std::chrono::steady_clock::now();
    std::lock_guard lock(graphvizMutex());

    Session session;
    if (!session.gvc()) {
        result.error = "Graphviz could not create a context (are its plugins installed?)";
        return result;
    }
    session.open();
    Agraph_t *g = session.graph();
    if (!g) {
        result.error = "Graphviz could not create a graph";
        return result;
    }
    agattr(g, AGRAPH, cstr("rankdir"), cstr("LR"));
    agattr(g, AGRAPH, cstr("nodesep"), cstr("0.25"));
    agattr(g, AGRAPH, cstr("ranksep"), cstr("0.6"));
    agattr(g, AGRAPH, cstr("fontsize"), cstr("9"));
    Agsym_t *shape = agattr(g, AGNODE, cstr("shape"), cstr("box"));
    agattr(g, AGNODE, cstr("fixedsize"), cstr("true"));
    agattr(g, AGNODE, cstr("label"), cstr(""));
    Agsym_t *width = agattr(g, AGNODE, cstr("width"), cstr("1"));
    Agsym_t *height = agattr(g, AGNODE, cstr("height"), cstr("0.5"));
    Agsym_t *label = agattr(g, AGEDGE, cstr("label"), cstr(""));
    Agsym_t *constraint = agattr(g, AGEDGE, cstr("constraint"), cstr("true"));
    agattr(g, AGEDGE, cstr("fontsize"), cstr("9"));

    std::vector<Agnode_t *> nodes(request.nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::string name = "n" + std::to_string(i);
        nodes[i] = agnode(g, cstr(name.c_str()), 1);
        const GraphLayoutRequest::Node &n = request.nodes[i];
        agxset(nodes[i], width, cstr(inches(n.widthPt).c_str()));
        agxset(nodes[i], height, cstr(inches(n.heightPt).c_str()));
        if (n.ellipse)
            agxset(nodes[i], shape, cstr("ellipse"));
    }
    std::vector<Agedge_t *> edges(request.edges.size(), nullptr);
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const GraphLayoutRequest::Edge &e = request.edges[i];
        if (e.from >= nodes.size() || e.to >= nodes.size())
            continue;
        edges[i] = agedge(g, nodes[e.from], nodes[e.to], nullptr, 1);
        if (!edges[i])
            continue;
        if (!e.label.empty())
            agxset(edges[i], label, cstr(e.label.c_str()));
        if (!e.constraint)
            agxset(edges[i], constraint, cstr("false"));
    }

    if (gvLayout(session.gvc(), g, "dot") != 0) {
        result.error = "Graphviz's dot layout failed";
        return result;
    }
    session.setLaidOut();

    const boxf bb = GD_bb(g);
    result.widthPt = bb.UR.x - bb.LL.x;
    result.heightPt = bb.UR.y - bb.LL.y;
    const auto toQt = [&bb](pointf p) { return GraphLayoutResult::Point{p.x - bb.LL.x, bb.UR.y - p.y}; };
    result.nodeCenters.reserve(nodes.size());
    for (Agnode_t *n : nodes)
        result.nodeCenters.push_back(toQt(ND_coord(n)));
    result.edges.resize(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        Agedge_t *e = edges[i];
        if (!e)
            continue;
        GraphLayoutResult::EdgePath &path = result.edges[i];
        if (const splines *spl = ED_spl(e); spl && spl->size > 0) {
            const bezier &bz = spl->list[0];
            path.points.reserve(std::size_t(bz.size));
            for (int k = 0; k < bz.size; ++k)
                path.points.push_back(toQt(bz.list[k]));
            if (bz.eflag) {
                path.hasArrow = true;
                path.arrowTip = toQt(bz.ep);
            }
        }
        if (const textlabel_t *l = ED_label(e); l && l->set) {
            path.hasLabel = true;
            path.labelCenter = toQt(l->pos);
        }
    }
    result.ok = true;
    result.elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    return result;
}

} // namespace TraceInspector
