#!/usr/bin/env python3
"""Writes the hostile-input corpus of tests/hostile_input_test.cc (issue 10) into this folder.

Each input is one file that `wasched schedule -f FILE` must reject with exit 1, nothing on
stdout, and a first `error:` line naming the file, document and field path (or line and column
for text that is not YAML). The expected first lines live in expected.txt; regenerate them with
WASCHED_UPDATE_GOLDEN=1 (tests/hostile_input_test.cc) and read the diff. Deterministic: run
`python3 tests/data/hostile/generate.py` after changing a case here.
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

NODE = "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus:\n  allocatable: {cpu: \"4\", memory: 32Gi, pods: \"110\"}\n"


def pod(body="", name="p", extra_meta="", requests='{cpu: "1"}'):
    return (f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default{extra_meta}}}\n"
            f"spec:\n  containers:\n  - name: main\n    image: registry.k8s.io/pause:3.10\n"
            f"    resources:\n      requests: {requests}\n{body}")


def node_alloc(alloc):
    return f"apiVersion: v1\nkind: Node\nmetadata: {{name: node-1}}\nstatus:\n  allocatable: {alloc}\n"


def pod_group(spec, name="g"):
    return (f"apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\n"
            f"metadata: {{name: {name}, namespace: default}}\nspec:\n{spec}")


def workload(spec, name="w"):
    return (f"apiVersion: scheduling.k8s.io/v1beta1\nkind: Workload\n"
            f"metadata: {{name: {name}, namespace: default}}\nspec:\n{spec}")


CASES = {}


def case(name, text):
    assert name not in CASES, name
    CASES[name] = text.encode() if isinstance(text, str) else text


# --- Text that is not YAML / JSON -------------------------------------------------------------
case("malformed-unclosed-flow-map.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: a\n")
case("malformed-bad-indentation.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n labels: {}\n")
case("malformed-tab-indentation.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n\tname: a\n")
case("malformed-unterminated-quote.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: \"a}\n")
case("malformed-stray-comma.yaml", ",\n")
case("malformed-unknown-alias.yaml", "apiVersion: v1\nkind: Node\nmetadata: *nowhere\n")
case("malformed-recursive-alias.yaml", "apiVersion: v1\nkind: Node\nmetadata: &m {name: a, self: *m}\n")
case("malformed-json-missing-colon.json", '{"apiVersion" "v1", "kind": "Node", "metadata": {"name": "a"}}\n')
case("malformed-json-truncated.json", '{"apiVersion": "v1", "kind": "Node", "metadata": {"na')
case("malformed-second-document.yaml", NODE + "---\napiVersion: v1\nkind: Pod\nmetadata: [name: p\n")
case("malformed-merge-key-scalar.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  <<: 5\n  name: a\n")
rng = random.Random(10)
case("binary-garbage.yaml", bytes(rng.randrange(256) for _ in range(512)))
case("binary-gzip-header.yaml", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + bytes(rng.randrange(256) for _ in range(64)))
case("binary-invalid-utf8-name.yaml", b"apiVersion: v1\nkind: Node\nmetadata: {name: \"\xff\xfe\xc3\x28\"}\n")
case("binary-control-characters.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: \"a\\u0007\\u001b[31m\"}\n")

# --- Documents that are not objects ----------------------------------------------------------
case("shape-document-is-scalar.yaml", "hello\n")
case("shape-document-is-list.yaml", "- apiVersion: v1\n  kind: Node\n  metadata: {name: a}\n")
case("shape-missing-kind.yaml", "apiVersion: v1\nmetadata: {name: a}\n")
case("shape-missing-apiversion.yaml", "kind: Node\nmetadata: {name: a}\n")
case("shape-kind-is-map.yaml", "apiVersion: v1\nkind: {Node: true}\nmetadata: {name: a}\n")
case("shape-list-items-map.yaml", "apiVersion: v1\nkind: List\nitems: {a: 1}\n")
case("shape-list-item-scalar.yaml", "apiVersion: v1\nkind: List\nitems: [3]\n")

# --- Wrong types: lists for maps, maps for lists, scalars for both ----------------------------
case("type-metadata-list.yaml", "apiVersion: v1\nkind: Node\nmetadata: [name, a]\n")
case("type-pod-spec-string.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec: run everything\n")
case("type-containers-map.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers: {name: main}\n")
case("type-requests-list.yaml", pod(requests='[cpu, "1"]'))
case("type-labels-list.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: a, labels: [zone-a]}\n")
case("type-label-value-map.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: a, labels: {zone: {a: b}}}\n")
case("type-allocatable-string.yaml", node_alloc("lots"))
case("type-taints-map.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nspec:\n  taints: {key: a, effect: NoSchedule}\n")
case("type-tolerations-string.yaml", pod("  tolerations: everything\n"))
case("type-node-selector-list.yaml", pod("  nodeSelector: [zone-a]\n"))
case("type-priority-float.yaml", pod("  priority: 1.5\n"))
case("type-name-map.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: {first: a}}\n")
case("type-mincount-string.yaml", pod_group("  schedulingPolicy:\n    gang: {minCount: many}\n"))
case("type-podgroup-templates-map.yaml", workload("  podGroupTemplates: {name: workers}\n"))
case("type-scheduling-group-string.yaml", pod("  schedulingGroup: workers\n"))
case("type-priorityclass-value-string.yaml", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: high\n")

# --- Quantities and numbers -------------------------------------------------------------------
case("quantity-huge-exponent.yaml", pod(requests='{cpu: "1e1000"}'))
case("quantity-negative-memory.yaml", pod(requests='{memory: "-1Gi"}'))
case("quantity-unknown-suffix.yaml", pod(requests='{memory: "10Qi"}'))
case("quantity-empty.yaml", pod(requests='{cpu: ""}'))
case("quantity-inner-space.yaml", pod(requests='{memory: "1 Gi"}'))
case("quantity-hex.yaml", pod(requests='{cpu: "0x10"}'))
case("quantity-nan.yaml", pod(requests="{cpu: .nan}"))
case("quantity-infinity.yaml", pod(requests="{cpu: .inf}"))
case("quantity-int64-overflow.yaml", node_alloc('{cpu: "4", memory: 32Gi, pods: "99999999999999999999"}'))
case("quantity-negative-pods.yaml", node_alloc('{cpu: "4", memory: 32Gi, pods: "-5"}'))
case("quantity-huge-memory.yaml", node_alloc('{cpu: "4", memory: 9000Ei, pods: "110"}'))
case("number-mincount-negative.yaml", pod_group("  schedulingPolicy:\n    gang: {minCount: -3}\n"))
case("number-mincount-overflow.yaml", pod_group("  schedulingPolicy:\n    gang: {minCount: 9223372036854775808}\n"))
case("number-priority-overflow.yaml", pod("  priority: 4294967296\n"))

# --- Nesting and size -------------------------------------------------------------------------
case("deep-flow-lists.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nx: " + "[" * 300 + "]" * 300 + "\n")
case("deep-json.json", '{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}, "x": ' + "[" * 300 + "]" * 300 + "}\n")
case("deep-block-maps.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(300)))
nested = "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n"
for _ in range(10):
    nested = "apiVersion: v1\nkind: List\nitems:\n" + "".join("- " + line + "\n" if i == 0 else "  " + line + "\n"
                                                          for i, line in enumerate(nested.rstrip("\n").split("\n")))
case("deep-lists-in-lists.yaml", nested)

# --- Alias expansion --------------------------------------------------------------------------
# 9 copies a level, 10 levels: 9^10 ≈ 3.5 billion CompositePodGroup templates by reference.
laughs = ("apiVersion: scheduling.k8s.io/v1alpha3\nkind: Workload\nmetadata: {name: w, namespace: default}\n"
          "l0: &l0 {name: a, podGroupTemplates: [{name: p}]}\n")
for i in range(1, 10):
    laughs += f"l{i}: &l{i} {{name: a, compositePodGroupTemplates: [" + ", ".join([f"*l{i-1}"] * 9) + "]}\n"
laughs += "spec: {compositePodGroupTemplates: [" + ", ".join(["*l9"] * 9) + "]}\n"
case("alias-billion-laughs.yaml", laughs)
# Lists of Lists of Nodes by reference: 9^8 ≈ 43 million objects.
lists = "apiVersion: v1\nkind: List\nn0: &n0 {apiVersion: v1, kind: Node, metadata: {name: a}}\n"
for i in range(1, 8):
    lists += f"n{i}: &n{i} {{apiVersion: v1, kind: List, items: [" + ", ".join([f"*n{i-1}"] * 9) + "]}\n"
lists += "items: [" + ", ".join(["*n7"] * 9) + "]\n"
case("alias-list-of-lists-bomb.yaml", lists)
merge = "apiVersion: v1\nkind: Node\nbase: &b0 {" + ", ".join(f"k{i}: v" for i in range(400)) + "}\n"
for i in range(1, 400):
    merge += f"m{i}: &b{i} {{<<: *b{i-1}, own{i}: v}}\n"
merge += "metadata: {name: a, labels: *b399}\n"
case("alias-merge-key-chain.yaml", merge)

# --- Names, duplicates, dangling references ---------------------------------------------------
case("name-empty.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: \"\"}\n")
case("name-invalid-characters.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: Bad_Name!}\n")
case("name-too-long.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: " + "a" * 300 + "}\n")
case("label-value-too-long.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: a, labels: {zone: " + "z" * 64 + "}}\n")
case("duplicate-key.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nmetadata: {name: b}\n")
case("duplicate-node-names.yaml", NODE + "---\n" + NODE)
case("duplicate-pods-in-list.yaml", "apiVersion: v1\nkind: PodList\nitems:\n"
     "- metadata: {name: p, namespace: default}\n  spec: {containers: [{name: c, image: x}]}\n"
     "- metadata: {name: p, namespace: default}\n  spec: {containers: [{name: c, image: x}]}\n")
case("dangling-pod-group.yaml", NODE + "---\n" + pod("  schedulingGroup: {podGroupName: ghost}\n"))
case("dangling-priority-class.yaml", NODE + "---\n" + pod("  priorityClassName: ghost\n"))
case("dangling-podgroup-priority-class.yaml", NODE + "---\n" + pod_group(
    "  priorityClassName: ghost\n  schedulingPolicy:\n    gang: {minCount: 1}\n"))


def main():
    for old in os.listdir(HERE):
        if old not in ("generate.py", "expected.txt") and old not in CASES:
            os.remove(os.path.join(HERE, old))
    for name, data in CASES.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
    print(f"{len(CASES)} hostile inputs written to {HERE}")


if __name__ == "__main__":
    main()
