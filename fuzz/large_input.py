#!/usr/bin/env python3
"""large_input.py [-n NODES] [-p PODS] [--json] > cluster.yaml: a synthetic cluster dump for the
"nothing quadratic" check of issue 10 (default 5,000 nodes + 95,000 pods = 100,000 objects, the
shape of Kubernetes' documented scalability limits). Pods come in PodGroups of 8 (gang minCount
8) with a PriorityClass, some already bound to nodes; YAML is one document per object, --json one
`v1 List` (what `kubectl get -o json` writes). Deterministic. Time it with fuzz/time_load.sh.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", "--nodes", type=int, default=5000)
    ap.add_argument("-p", "--pods", type=int, default=95000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    objects = [{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                "metadata": {"name": "batch"}, "value": 1000}]
    for i in range(args.nodes):
        objects.append({
            "apiVersion": "v1", "kind": "Node",
            "metadata": {"name": f"node-{i:05d}", "labels": {
                "kubernetes.io/hostname": f"node-{i:05d}",
                "topology.kubernetes.io/zone": f"zone-{i % 4}",
                "topology.kubernetes.io/rack": f"rack-{i // 40}"}},
            "status": {"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "110",
                                       "nvidia.com/gpu": "8"}}})
    groups = args.pods // 8
    for g in range(groups):
        objects.append({
            "apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
            "metadata": {"name": f"group-{g:05d}", "namespace": f"ns-{g % 50}"},
            "spec": {"priorityClassName": "batch", "schedulingPolicy": {"gang": {"minCount": 8}}}})
    for i in range(args.pods):
        g = i // 8
        spec = {"priorityClassName": "batch",
                "containers": [{"name": "main", "image": "registry.k8s.io/pause:3.10",
                                "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}
        meta = {"name": f"pod-{i:06d}", "namespace": f"ns-{g % 50}",
                "creationTimestamp": "2026-01-01T00:00:00Z"}
        if g < groups:
            spec["schedulingGroup"] = {"podGroupName": f"group-{g:05d}"}
        if i % 3 == 0:
            spec["nodeName"] = f"node-{i % args.nodes:05d}"
        objects.append({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec})
    out = sys.stdout
    if args.json:
        json.dump({"apiVersion": "v1", "kind": "List", "items": objects}, out)
        out.write("\n")
        return
    for o in objects:
        out.write("---\n")
        out.write(to_yaml(o, 0))


def to_yaml(v, indent):
    pad = "  " * indent
    lines = []
    for k, x in v.items():
        if isinstance(x, dict):
            lines.append(f"{pad}{k}:\n" + to_yaml(x, indent + 1))
        elif isinstance(x, list):
            lines.append(f"{pad}{k}:\n" + "".join(
                f"{pad}- " + to_yaml(item, indent + 1).lstrip() for item in x))
        else:
            lines.append(f"{pad}{k}: {json.dumps(x)}\n")
    return "".join(lines)


if __name__ == "__main__":
    main()
