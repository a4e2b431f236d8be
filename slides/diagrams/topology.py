#!/usr/bin/env python3
"""topology.py: two recorded machines as a Graphviz graph (DOT on stdout).

GPUs with their SMs, copy engines and HBM; the NVLink between a pair of GPUs
and one GPU's PCIe link to host memory; on each arrow the rate the recorded runs
measured (lab 05's recordings on the first machine of tests/fixtures/machines.tsv
with two GPUs joined by NVLink, and on the first with one GPU on PCIe; tools/lib/machines.py),
read with the same row query the decks use.

  slides/diagrams/topology.py | dot -Tsvg -o slides/img/topology.svg
"""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "slides_fill", os.path.join(here, "..", "..", "tools", "slides", "slides-fill.py"))
fill = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fill)
sys.dont_write_bytecode = True  # no __pycache__ in tools/
sys.path.insert(0, os.path.join(here, "..", "..", "tools", "lib"))
import machines  # noqa: E402

GIB = "1073741824"


def bw(fix, exp, variant, route, src, dst, mode="one_way"):
    return fill.num(fix, "gbps", {"experiment": exp, "variant": variant, "route": route,
                                  "src": src, "dst": dst, "mode": mode, "bytes": GIB})


def lat(fix, exp, variant, route, src, dst, mode):
    return fill.num(fix, "median_us", {"experiment": exp, "variant": variant, "route": route,
                                       "src": src, "dst": dst, "mode": mode}, "%.2f")


def gpu(name, label):
    return f'''  subgraph cluster_{name} {{
    label="{label}"; style="rounded"; color="#1b365d"; fontsize=20;
    {name}_sm [label="SMs (kernels)"]; {name}_ce [label="copy engines"]; {name}_hbm [label="HBM3e", shape=cylinder];
    {{ rank=same; {name}_sm; {name}_ce; {name}_hbm; }}
  }}'''


def fix(**columns):
    """The name (labNN-SUFFIX) of lab 05's first recording on a machine with these columns."""
    path = machines.recording("05", os.environ.get("FIXTURES") or None, **columns)
    return os.path.basename(path)[:-len(".csv")]


def main():
    two, one = fix(gpu_count="2", link_kind="NVLink"), fix(gpu_count="1", link_kind="PCIe")
    nv = (f"{fill.link(two)}\\nCE {bw(two, 'ce_bandwidth', 'ce', 'peer', '0', '1')} GB/s one way, "
          f"{bw(two, 'ce_bandwidth', 'ce', 'peer', '0', '1', 'both_ways')} both\\n"
          f"SM pull {bw(two, 'sm_bandwidth', 'sm_pull', 'peer', '0', '1')}, "
          f"push {bw(two, 'sm_bandwidth', 'sm_push', 'peer', '0', '1')} GB/s\\n"
          f"load latency {fill.num(two, 'median_us', {'experiment': 'pointer_chase', 'route': 'peer', 'src': '0', 'dst': '1'}, '%.2f')} μs")
    off = (f"peer access off: staged via host\\n{bw(two, 'ce_bandwidth', 'ce', 'peer_off', '0', '1')} GB/s"
           "\\n(the host link alone: not measured)")
    pcie = (f"{fill.link(one)}\\nCE host→GPU {bw(one, 'ce_bandwidth', 'ce', 'host', '-1', '0')}, "
            f"GPU→host {bw(one, 'ce_bandwidth', 'ce', 'host', '0', '-1')} GB/s\\n"
            f"SM loads {bw(one, 'sm_bandwidth', 'sm_pull', 'host', '-1', '0')}, "
            f"stores {bw(one, 'sm_bandwidth', 'sm_push', 'host', '0', '-1')} GB/s\\n"
            f"load latency {lat(one, 'pointer_chase', 'chase', 'host', '-1', '0', 'beyond_l2')} μs")
    host = 'shape=cylinder, fillcolor="#f7f1e6", label="host memory (pinned)"'
    out = ['digraph topology {',
           '  graph [rankdir=TB, fontname="Liberation Sans", nodesep=0.3, ranksep=0.45];',
           '  node [fontname="Liberation Sans", shape=box, style="rounded,filled", fillcolor="#eef2f7", fontsize=18];',
           '  edge [fontname="Liberation Sans"];',
           f'  subgraph cluster_two {{ label="{fill.hardware(two)}"; fontsize=24; style="dashed"; color="#888888";',
           gpu("g0", "GPU 0"), gpu("g1", "GPU 1"),
           f'    nv [label="{nv}", style="rounded", color="#1a7f37", fontcolor="#1a7f37"];',
           f'    off [label="{off}", style="rounded,dashed", color="#b42318", fontcolor="#b42318"];',
           f'    h2 [{host}];',
           '    g0_ce -> nv -> g1_ce [dir=both, penwidth=5, color="#1a7f37"];',
           '    g0_hbm -> off -> h2 [style=dashed, color="#b42318"];',
           '  }',
           f'  subgraph cluster_one {{ label="{fill.hardware(one)}"; fontsize=24; style="dashed"; color="#888888";',
           gpu("s0", "GPU 0"),
           f'    pcie [label="{pcie}", style="rounded", color="#1b365d", fontcolor="#1b365d"];',
           f'    h1 [{host}];',
           '    s0_ce -> pcie -> h1 [dir=both, penwidth=4, color="#1b365d"];',
           '  }',
           '}']
    print("\n".join(out))


if __name__ == "__main__":
    try:
        main()
    except (fill.FillError, machines.Unknown) as e:
        print(f"topology: {e}", file=sys.stderr)
        sys.exit(1)
