#!/usr/bin/env python3
"""topology.py: the recorded machines as a Graphviz graph (DOT on stdout).

Every machine of tests/fixtures/machines.tsv with recordings, a box each, in the
table's order (tools/lib/machines.py): GPUs with their SMs, copy engines and HBM;
on a machine of several GPUs the link between a pair of them, on one GPU its link
to host memory; on each arrow the rate lab 05's recording on that machine
measured, read with the same row query the decks use. A machine with no lab 05
recording is drawn with its GPUs and says so.

  slides/diagrams/topology.py | dot -Tsvg -o slides/img/topology.svg
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in tools/
sys.path.insert(0, os.path.join(here, "..", "..", "tools", "lib"))
import fill_recordings  # noqa: E402 (the filler of the decks: the machines' links and names)
import fill_rows  # noqa: E402 (the filler of the decks: the same row query they use)
import machines  # noqa: E402

GIB = "1073741824"


def bw(fix, exp, variant, route, src, dst, mode="one_way"):
    return fill_rows.num(fix, "gbps", {"experiment": exp, "variant": variant, "route": route,
                                  "src": src, "dst": dst, "mode": mode, "bytes": GIB})


def lat(fix, exp, variant, route, src, dst, mode):
    return fill_rows.num(fix, "median_us", {"experiment": exp, "variant": variant, "route": route,
                                       "src": src, "dst": dst, "mode": mode}, "%.2f")


def gpu(name, label):
    return f'''  subgraph cluster_{name} {{
    label="{label}"; style="rounded"; color="#1b365d"; fontsize=20;
    {name}_sm [label="SMs (kernels)"]; {name}_ce [label="copy engines"]; {name}_hbm [label="HBM3e", shape=cylinder];
    {{ rank=same; {name}_sm; {name}_ce; {name}_hbm; }}
  }}'''


HOST = 'shape=cylinder, fillcolor="#f7f1e6", label="host memory (pinned)"'


def pair(k, two):
    """The cluster body of a machine of several GPUs, lab 05's recording TWO (labNN-SUFFIX)."""
    nv = (f"{fill_recordings.link(two)}\\nCE {bw(two, 'ce_bandwidth', 'ce', 'peer', '0', '1')} GB/s one way, "
          f"{bw(two, 'ce_bandwidth', 'ce', 'peer', '0', '1', 'both_ways')} both\\n"
          f"SM pull {bw(two, 'sm_bandwidth', 'sm_pull', 'peer', '0', '1')}, "
          f"push {bw(two, 'sm_bandwidth', 'sm_push', 'peer', '0', '1')} GB/s\\n"
          f"load latency {fill_rows.num(two, 'median_us', {'experiment': 'pointer_chase', 'route': 'peer', 'src': '0', 'dst': '1'}, '%.2f')} μs")
    off = (f"peer access off: staged via host\\n{bw(two, 'ce_bandwidth', 'ce', 'peer_off', '0', '1')} GB/s"
           "\\n(the host link alone: not measured)")
    return [gpu(f"m{k}g0", "GPU 0"), gpu(f"m{k}g1", "GPU 1"),
            f'    m{k}nv [label="{nv}", style="rounded", color="#1a7f37", fontcolor="#1a7f37"];',
            f'    m{k}off [label="{off}", style="rounded,dashed", color="#b42318", fontcolor="#b42318"];',
            f'    m{k}h [{HOST}];',
            f'    m{k}g0_ce -> m{k}nv -> m{k}g1_ce [dir=both, penwidth=5, color="#1a7f37"];',
            f'    m{k}g0_hbm -> m{k}off -> m{k}h [style=dashed, color="#b42318"];']


def single(k, one):
    """The cluster body of a machine of one GPU, lab 05's recording ONE (labNN-SUFFIX)."""
    pcie = (f"{fill_recordings.link(one)}\\nCE host→GPU {bw(one, 'ce_bandwidth', 'ce', 'host', '-1', '0')}, "
            f"GPU→host {bw(one, 'ce_bandwidth', 'ce', 'host', '0', '-1')} GB/s\\n"
            f"SM loads {bw(one, 'sm_bandwidth', 'sm_pull', 'host', '-1', '0')}, "
            f"stores {bw(one, 'sm_bandwidth', 'sm_push', 'host', '0', '-1')} GB/s\\n"
            f"load latency {lat(one, 'pointer_chase', 'chase', 'host', '-1', '0', 'beyond_l2')} μs")
    return [gpu(f"m{k}g0", "GPU 0"),
            f'    m{k}link [label="{pcie}", style="rounded", color="#1b365d", fontcolor="#1b365d"];',
            f'    m{k}h [{HOST}];',
            f'    m{k}g0_ce -> m{k}link -> m{k}h [dir=both, penwidth=4, color="#1b365d"];']


def unmeasured(k, m):
    """The cluster body of a machine without a lab 05 recording: its GPUs, no figures."""
    n = int(m["gpu_count"])
    return [gpu(f"m{k}g{g}", f"GPU {g}") for g in range(min(n, 2))] + [
        f'    m{k}none [label="no lab 05 recording: no link measured", style="rounded,dashed"];']


def main():
    fixtures = os.environ.get("FIXTURES") or None
    lab05 = {m["suffix"]: os.path.basename(path)[:-len(".csv")] for path, m in machines.recordings("05", fixtures)}
    shown = {m["suffix"] for _, m in machines.recordings(None, fixtures)}
    drawn = [m for m in machines.machines() if m["suffix"] in shown]
    if not drawn:
        raise machines.Unknown("no machine of machines.tsv has a recording")
    out = ['digraph topology {',
           '  graph [rankdir=TB, fontname="Liberation Sans", nodesep=0.3, ranksep=0.45];',
           '  node [fontname="Liberation Sans", shape=box, style="rounded,filled", fillcolor="#eef2f7", fontsize=18];',
           '  edge [fontname="Liberation Sans"];']
    for k, m in enumerate(drawn):
        fix = lab05.get(m["suffix"])
        out.append(f'  subgraph cluster_m{k} {{ label="{fill_recordings.machine_label(m)}"; fontsize=24; style="dashed"; '
                   f'color="#888888";')
        if not fix:
            out += unmeasured(k, m)
        elif int(m["gpu_count"]) >= 2:
            out += pair(k, fix)
        else:
            out += single(k, fix)
        out.append('  }')
    out.append('}')
    print("\n".join(out))


if __name__ == "__main__":
    try:
        main()
    except (fill_recordings.FillError, machines.Unknown) as e:
        print(f"topology: {e}", file=sys.stderr)
        sys.exit(1)
