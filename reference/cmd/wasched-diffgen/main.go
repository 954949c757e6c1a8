// Command wasched-diffgen writes seeded random small clusters for the differential suite
// (tests/differential/README.md): one folder of manifests per case, which `wasched schedule -f`
// and the real v1.37.2 control plane (wasched-reference) both read.
//
//	wasched-diffgen -seed 1 -count 500 -out DIR [-start 0] [-family default|affinity]
//
// The `affinity` family (affinity.go, cases a<S>-<i>) exercises InterPodAffinity,
// PodTopologySpread and NodePorts on bare pods and gangs; the default family (cases r<S>-<i>) is
// described here.
//
// Each case is a cluster of 2–30 nodes in zones and racks (labels topology.kubernetes.io/zone and
// topology.example.com/rack) with distinct CPU and memory sizes (so that score ties are rare),
// optionally GPUs published as DRA devices (resource.k8s.io/v1 DeviceClass and ResourceSlices),
// taints and an unschedulable node; optionally running low-priority pods (bare, in PodGroups with
// disruptionMode all or single, protected by PodDisruptionBudgets) to preempt; and pending units:
// bare pods, gang and basic PodGroups (scheduling.k8s.io/v1beta1, with topology constraints,
// priorities, preemptionPolicy and PodGroup-level shared claims), CompositePodGroup trees
// (v1alpha3, zone → rack) and batch/v1 Jobs with `.spec.scheduling` (KEP-5547).
//
// Shapes follow k8s.io/api v0.37.2 (scheduling/v1beta1, scheduling/v1alpha3, batch/v1,
// resource/v1, policy/v1). Files hold JSON documents separated by `---` (JSON is YAML, so both
// tools read them and the runner can rewrite them with the standard library). The same seed, count
// and start give the same bytes: the only randomness is a PCG stream per case seeded by (seed,
// case index). Standard library only.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// obj is one manifest; encoding/json writes map keys sorted, so output is deterministic.
type obj = map[string]any

const (
	zoneKey  = "topology.kubernetes.io/zone"
	rackKey  = "topology.example.com/rack"
	gpuClass = "gpu.example.com"
	ns       = "default"
)

func main() {
	seed := flag.Uint64("seed", 1, "seed of the whole set")
	count := flag.Int("count", 500, "number of cases")
	start := flag.Int("start", 0, "index of the first case (cases start..start+count-1)")
	out := flag.String("out", "", "output folder (one sub-folder per case)")
	family := flag.String("family", "default", "default (gangs, trees, Jobs, DRA, preemption) or affinity (pod affinity, spread, host ports)")
	flag.Parse()
	if *out == "" || *count < 0 || *start < 0 || flag.NArg() != 0 || (*family != "default" && *family != "affinity") {
		fmt.Fprintln(os.Stderr, "usage: wasched-diffgen -out DIR [-seed N] [-count N] [-start N] [-family default|affinity]")
		os.Exit(2)
	}
	caseName, generate := CaseName, Generate
	if *family == "affinity" {
		caseName, generate = AffinityCaseName, GenerateAffinity
	}
	for i := *start; i < *start+*count; i++ {
		name := caseName(*seed, i)
		files := generate(*seed, i)
		dir := filepath.Join(*out, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			os.Exit(1)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "error:", err)
				os.Exit(1)
			}
		}
	}
}

// CaseName: the folder name of case `i` of `seed`.
func CaseName(seed uint64, i int) string { return fmt.Sprintf("r%d-%04d", seed, i) }

type file struct {
	name string
	data []byte
}

type node struct {
	name, zone, rack string
	cpu, mem         int64 // milli-CPU, MiB
	gpus             int
	tainted          bool // dedicated=gpu:NoSchedule (GPU nodes only)
	soft             bool // maintenance=soon:PreferNoSchedule
	unschedulable    bool
	freeCPU, freeMem int64
	freePods         int
}

type gen struct {
	r        *rand.Rand
	name     string
	nodes    []*node
	dra      bool
	cluster  []obj
	running  []obj
	groups   []obj
	pods     []obj
	jobs     []obj
	maxCPU   int64
	zones    []string
	unitSeq  int
	hasTaint bool
	ignoreOK bool // affinity family: spread constraints may use nodeAffinityPolicy Ignore
}

// Generate: the files of case `i` of `seed`, in the order both tools read them.
func Generate(seed uint64, i int) []file {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i)+1)), name: CaseName(seed, i)}
	g.cluster = append(g.cluster, priorityClasses()...)
	g.makeNodes()
	if g.r.Float64() < 0.5 {
		g.makeRunning()
	}
	units := 1 + g.r.IntN(6)
	cpg := g.r.Float64() < 0.35
	jobs := g.r.Float64() < 0.3
	for u := 0; u < units; u++ {
		x := g.r.Float64()
		switch {
		case cpg && x < 0.2:
			g.compositeTree()
		case jobs && x < 0.4:
			g.job()
		case x < 0.55:
			g.barePods()
		case x < 0.65:
			g.basicGroup()
		default:
			g.gang()
		}
	}
	return g.files()
}

// files: the case's manifests, in the order both tools read them.
func (g *gen) files() []file {
	var files []file
	add := func(name string, objs []obj) {
		if len(objs) == 0 {
			return
		}
		var data []byte
		for k, o := range objs {
			if k > 0 {
				data = append(data, "---\n"...)
			}
			b, err := json.Marshal(o)
			if err != nil {
				panic(err) // maps of strings, numbers and slices always marshal
			}
			data = append(data, b...)
			data = append(data, '\n')
		}
		files = append(files, file{name, data})
	}
	add("00-cluster.yaml", g.cluster)
	add("10-running.yaml", g.running)
	add("20-groups.yaml", g.groups)
	add("30-pods.yaml", g.pods)
	add("40-jobs.yaml", g.jobs)
	return files
}

func priorityClasses() []obj {
	pc := func(name string, value int, never bool) obj {
		o := obj{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
			"metadata": obj{"name": name}, "value": value}
		if never {
			o["preemptionPolicy"] = "Never"
		}
		return o
	}
	return []obj{pc("low", 10, false), pc("mid", 100, false), pc("high", 1000, false),
		pc("high-nonpreempting", 900, true)}
}

// makeNodes: 2–30 nodes over 1–3 zones of 1–3 racks; sizes distinct by construction (each node
// gets its own 750m CPU band and 2 GiB memory band, shuffled independently).
func (g *gen) makeNodes() {
	n := 2 + g.r.IntN(29)
	nz := 1 + g.r.IntN(min(3, n))
	racksPerZone := 1 + g.r.IntN(3)
	cpuBand := g.r.Perm(n)
	memBand := g.r.Perm(n)
	g.dra = g.r.Float64() < 0.3
	taints := g.r.Float64() < 0.2
	for z := 0; z < nz; z++ {
		g.zones = append(g.zones, fmt.Sprintf("zone-%c", 'a'+z))
	}
	for k := 0; k < n; k++ {
		z := k % nz
		rack := (k / nz) % racksPerZone
		nd := &node{
			name: fmt.Sprintf("node-%02d", k),
			zone: g.zones[z],
			rack: fmt.Sprintf("rack-%c%d", 'a'+z, rack),
			cpu:  2000 + int64(cpuBand[k])*750 + int64(g.r.IntN(500)),
			mem:  4096 + int64(memBand[k])*2048 + int64(g.r.IntN(1024)),
		}
		if g.dra && g.r.Float64() < 0.5 {
			nd.gpus = 1 + g.r.IntN(8)
			nd.tainted = taints && g.r.Float64() < 0.5
		}
		nd.soft = taints && g.r.Float64() < 0.15
		nd.freeCPU, nd.freeMem, nd.freePods = nd.cpu, nd.mem, 110
		g.maxCPU = max(g.maxCPU, nd.cpu)
		g.nodes = append(g.nodes, nd)
	}
	if n >= 4 && g.r.Float64() < 0.1 {
		g.nodes[g.r.IntN(n)].unschedulable = true
	}
	if g.dra {
		g.cluster = append(g.cluster, obj{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
			"metadata": obj{"name": gpuClass},
			"spec":     obj{"selectors": []any{obj{"cel": obj{"expression": "device.driver == '" + gpuClass + "'"}}}}})
		for _, t := range []struct {
			name  string
			count int
		}{{"one-gpu", 1}, {"two-gpu", 2}} {
			exactly := obj{"deviceClassName": gpuClass}
			if t.count > 1 {
				exactly["allocationMode"] = "ExactCount"
				exactly["count"] = t.count
			}
			g.cluster = append(g.cluster, obj{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
				"metadata": obj{"name": t.name, "namespace": ns},
				"spec":     obj{"spec": obj{"devices": obj{"requests": []any{obj{"name": "gpu", "exactly": exactly}}}}}})
		}
	}
	for _, nd := range g.nodes {
		meta := obj{"name": nd.name, "labels": obj{zoneKey: nd.zone, rackKey: nd.rack, "kubernetes.io/hostname": nd.name}}
		spec := obj{}
		var taints []any
		if nd.tainted {
			taints = append(taints, obj{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"})
			g.hasTaint = true
		}
		if nd.soft {
			taints = append(taints, obj{"key": "maintenance", "value": "soon", "effect": "PreferNoSchedule"})
		}
		if len(taints) > 0 {
			spec["taints"] = taints
		}
		if nd.unschedulable {
			spec["unschedulable"] = true
		}
		alloc := obj{"cpu": milli(nd.cpu), "memory": mebi(nd.mem), "pods": "110"}
		o := obj{"apiVersion": "v1", "kind": "Node", "metadata": meta,
			"status": obj{"capacity": alloc, "allocatable": alloc}}
		if len(spec) > 0 {
			o["spec"] = spec
		}
		g.cluster = append(g.cluster, o)
	}
	for _, nd := range g.nodes {
		if nd.gpus == 0 {
			continue
		}
		var devices []any
		for d := 0; d < nd.gpus; d++ {
			devices = append(devices, obj{"name": fmt.Sprintf("gpu-%d", d),
				"attributes": obj{"model": obj{"string": "LATEST-GPU-MODEL"}},
				"capacity":   obj{"memory": obj{"value": "80Gi"}}})
		}
		g.cluster = append(g.cluster, obj{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
			"metadata": obj{"name": nd.name + "-" + gpuClass},
			"spec": obj{"driver": gpuClass, "nodeName": nd.name,
				"pool":    obj{"name": nd.name, "generation": 0, "resourceSliceCount": 1},
				"devices": devices}})
	}
}

func milli(m int64) string {
	if m%1000 == 0 {
		return fmt.Sprint(m / 1000)
	}
	return fmt.Sprintf("%dm", m)
}

func mebi(m int64) string { return fmt.Sprintf("%dMi", m) }

// podSize: a request drawn so that a few pods fill a node and take a visible share of it (scores
// are integers 0–100 per plugin, so a pod much smaller than every node scores the same
// everywhere): mostly 1–4 CPU, some smaller, a few close to the largest node; memory drawn on its
// own (64 MiB steps up to 8 GiB) so that NodeResourcesBalancedAllocation tells nodes apart too.
func (g *gen) podSize() (cpu, mem int64) {
	x := g.r.Float64()
	switch {
	case x < 0.25:
		cpu = 250 + 50*int64(g.r.IntN(16)) // 250m–1000m
	case x < 0.9:
		cpu = 1000 + 50*int64(g.r.IntN(61)) // 1–4 CPU
	default:
		cpu = max(1000, g.maxCPU*int64(40+g.r.IntN(50))/100/50*50)
	}
	mem = 64 * int64(4+g.r.IntN(125)) // 256 MiB – 8 GiB
	return cpu, mem
}

func (g *gen) priority() string {
	return []string{"", "", "low", "mid", "high", "high-nonpreempting"}[g.r.IntN(6)]
}

// pod: a Pod manifest; node "" for pending pods.
func (g *gen) pod(name, app, pcn, group, node string, cpu, mem int64) obj {
	spec := obj{"containers": []any{obj{"name": "main", "image": "registry.k8s.io/pause:3.10",
		"resources": obj{"requests": obj{"cpu": milli(cpu), "memory": mebi(mem)}}}}}
	if pcn != "" {
		spec["priorityClassName"] = pcn
	}
	if group != "" {
		spec["schedulingGroup"] = obj{"podGroupName": group}
	}
	if node != "" {
		spec["nodeName"] = node
	}
	return obj{"apiVersion": "v1", "kind": "Pod",
		"metadata": obj{"name": name, "namespace": ns, "labels": obj{"app": app}}, "spec": spec}
}

// claim: adds a per-pod claim from `template` (or the shared `shared` claim entry) to a pod,
// and the toleration for tainted GPU nodes.
func addClaim(p obj, claimName, template, claim string) {
	spec := p["spec"].(obj)
	entry := obj{"name": claimName}
	if template != "" {
		entry["resourceClaimTemplateName"] = template
	} else {
		entry["resourceClaimName"] = claim
	}
	spec["resourceClaims"] = []any{entry}
	c := spec["containers"].([]any)[0].(obj)
	c["resources"].(obj)["claims"] = []any{obj{"name": claimName}}
}

func (g *gen) tolerateGPU(p obj) {
	if g.hasTaint {
		p["spec"].(obj)["tolerations"] = []any{obj{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}}
	}
}

// place: a node with room for cpu/mem, chosen at random, or nil.
func (g *gen) place(cpu, mem int64) *node {
	var fit []*node
	for _, nd := range g.nodes {
		if nd.freeCPU >= cpu && nd.freeMem >= mem && nd.freePods > 0 {
			fit = append(fit, nd)
		}
	}
	if len(fit) == 0 {
		return nil
	}
	nd := fit[g.r.IntN(len(fit))]
	nd.freeCPU -= cpu
	nd.freeMem -= mem
	nd.freePods--
	return nd
}

// makeRunning: running low/mid-priority pods filling part of the cluster: bare pods (some under
// a PodDisruptionBudget) and PodGroups whose members all run (disruptionMode all or single).
func (g *gen) makeRunning() {
	target := 0.3 + 0.6*g.r.Float64()
	var total, used int64
	for _, nd := range g.nodes {
		total += nd.cpu
	}
	for k := 0; float64(used) < target*float64(total) && k < 40; k++ {
		pcn := []string{"low", "low", "mid"}[g.r.IntN(3)]
		cpu, mem := g.podSize()
		cpu = min(cpu, 2500)
		mem = min(mem, 4096)
		switch x := g.r.Float64(); {
		case x < 0.4: // a running group
			name := fmt.Sprintf("run-g%d", k)
			n := 1 + g.r.IntN(4)
			var members []obj
			for m := 0; m < n; m++ {
				nd := g.place(cpu, mem)
				if nd == nil {
					break
				}
				used += cpu
				members = append(members, g.pod(fmt.Sprintf("%s-%d", name, m), name, pcn, name, nd.name, cpu, mem))
			}
			if len(members) == 0 {
				continue
			}
			spec := obj{"schedulingPolicy": obj{"gang": obj{"minCount": len(members)}}, "priorityClassName": pcn}
			neverForNonPreempting(spec, pcn)
			if g.r.Float64() < 0.6 {
				spec["disruptionMode"] = obj{"all": obj{}}
			} else {
				spec["disruptionMode"] = obj{"single": obj{}}
			}
			g.running = append(g.running, obj{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
				"metadata": obj{"name": name, "namespace": ns}, "spec": spec})
			g.running = append(g.running, members...)
		case x < 0.6: // bare pods under a PodDisruptionBudget
			app := fmt.Sprintf("run-pdb%d", k)
			n := 2 + g.r.IntN(3)
			placed := 0
			for m := 0; m < n; m++ {
				nd := g.place(cpu, mem)
				if nd == nil {
					break
				}
				used += cpu
				placed++
				g.running = append(g.running, g.pod(fmt.Sprintf("%s-%d", app, m), app, pcn, "", nd.name, cpu, mem))
			}
			if placed == 0 {
				continue
			}
			spec := obj{"selector": obj{"matchLabels": obj{"app": app}}}
			if g.r.Float64() < 0.5 {
				spec["minAvailable"] = 1 + g.r.IntN(placed)
			} else {
				spec["maxUnavailable"] = g.r.IntN(placed)
			}
			g.running = append(g.running, obj{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
				"metadata": obj{"name": app, "namespace": ns}, "spec": spec})
		default: // a bare running pod
			nd := g.place(cpu, mem)
			if nd == nil {
				continue
			}
			used += cpu
			name := fmt.Sprintf("run-p%d", k)
			g.running = append(g.running, g.pod(name, name, pcn, "", nd.name, cpu, mem))
		}
	}
}

func (g *gen) nextUnit(prefix string) string {
	g.unitSeq++
	return fmt.Sprintf("%s%d", prefix, g.unitSeq)
}

// barePods: 1–3 pods without a group, sometimes pinned to a zone or claiming a GPU.
func (g *gen) barePods() {
	name := g.nextUnit("bare")
	pcn := g.priority()
	cpu, mem := g.podSize()
	n := 1 + g.r.IntN(3)
	zone := ""
	if g.r.Float64() < 0.2 {
		zone = g.zones[g.r.IntN(len(g.zones))]
	}
	gpu := g.dra && g.r.Float64() < 0.4
	for m := 0; m < n; m++ {
		p := g.pod(fmt.Sprintf("%s-%d", name, m), name, pcn, "", "", cpu, mem)
		if zone != "" {
			p["spec"].(obj)["nodeSelector"] = obj{zoneKey: zone}
		}
		if gpu {
			addClaim(p, "gpu", "one-gpu", "")
			g.tolerateGPU(p)
		}
		g.pods = append(g.pods, p)
	}
}

// groupSpec: the common PodGroup spec fields of a pending unit.
func (g *gen) groupSpec(policy obj, pcn string) obj {
	spec := obj{"schedulingPolicy": policy}
	if pcn != "" {
		spec["priorityClassName"] = pcn
	}
	neverForNonPreempting(spec, pcn)
	return spec
}

// neverForNonPreempting: API defaulting sets a group's unset preemptionPolicy to
// PreemptLowerPriority before priority admission compares it with the class's, so a group of
// the non-preempting class must spell Never itself (observed on the v1.37.2 control plane).
func neverForNonPreempting(spec obj, pcn string) {
	if pcn == "high-nonpreempting" {
		spec["preemptionPolicy"] = "Never"
	}
}

func (g *gen) basicGroup() {
	name := g.nextUnit("basic")
	pcn := g.priority()
	spec := g.groupSpec(obj{"basic": obj{}}, pcn)
	if g.r.Float64() < 0.3 {
		spec["disruptionMode"] = obj{"single": obj{}}
	}
	g.groups = append(g.groups, obj{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
		"metadata": obj{"name": name, "namespace": ns}, "spec": spec})
	cpu, mem := g.podSize()
	for m := 0; m < 1+g.r.IntN(4); m++ {
		g.pods = append(g.pods, g.pod(fmt.Sprintf("%s-%d", name, m), name, pcn, name, "", cpu, mem))
	}
}

// gang: a PodGroup with gang minCount ≤ its pods, optional topology constraint, disruptionMode,
// preemptionPolicy, a Workload it references, and GPUs (per pod, or one claim shared by the
// group through a PodGroup-level claim).
func (g *gen) gang() {
	name := g.nextUnit("gang")
	pcn := g.priority()
	n := 1 + g.r.IntN(6)
	minCount := n - g.r.IntN(min(n, 3))
	if g.r.Float64() < 0.15 {
		n = minCount - 1 // below quorum: held at PreEnqueue
		if n == 0 {
			n = minCount
		}
	}
	// preemptionPolicy: admission refuses a PodGroup whose policy differs from its class's
	// (PreemptLowerPriority without a class), so Never comes with the non-preempting class.
	policy := ""
	if g.r.Float64() < 0.2 {
		policy = []string{"Never", "PreemptLowerPriority"}[g.r.IntN(2)]
		switch {
		case policy == "Never":
			pcn = "high-nonpreempting"
		case pcn == "high-nonpreempting":
			pcn = "high"
		}
	}
	spec := g.groupSpec(obj{"gang": obj{"minCount": minCount}}, pcn)
	if policy != "" {
		spec["preemptionPolicy"] = policy
	}
	if g.r.Float64() < 0.4 {
		spec["schedulingConstraints"] = obj{"topology": []any{obj{"key": []string{zoneKey, rackKey}[g.r.IntN(2)]}}}
	}
	switch x := g.r.Float64(); {
	case x < 0.3:
		spec["disruptionMode"] = obj{"all": obj{}}
	case x < 0.5:
		spec["disruptionMode"] = obj{"single": obj{}}
	}
	if g.r.Float64() < 0.4 {
		tpl := obj{"name": "main", "schedulingPolicy": spec["schedulingPolicy"]}
		for _, k := range []string{"schedulingConstraints", "disruptionMode", "priorityClassName", "preemptionPolicy"} {
			if v, ok := spec[k]; ok {
				tpl[k] = v
			}
		}
		g.groups = append(g.groups, obj{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "Workload",
			"metadata": obj{"name": name + "-wl", "namespace": ns},
			"spec":     obj{"podGroupTemplates": []any{tpl}}})
		spec["workloadRef"] = obj{"workloadName": name + "-wl", "templateName": "main"}
	}
	gpu := ""
	if g.dra && g.r.Float64() < 0.5 {
		gpu = []string{"per-pod", "shared"}[g.r.IntN(2)]
	}
	if gpu == "shared" {
		spec["resourceClaims"] = []any{obj{"name": "shared-gpu", "resourceClaimTemplateName": "one-gpu"}}
	}
	g.groups = append(g.groups, obj{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
		"metadata": obj{"name": name, "namespace": ns}, "spec": spec})
	cpu, mem := g.podSize()
	for m := 0; m < n; m++ {
		p := g.pod(fmt.Sprintf("%s-%d", name, m), name, pcn, name, "", cpu, mem)
		switch gpu {
		case "per-pod":
			addClaim(p, "gpu", "one-gpu", "")
			g.tolerateGPU(p)
		case "shared":
			addClaim(p, "shared-gpu", "one-gpu", "")
			g.tolerateGPU(p)
		}
		g.pods = append(g.pods, p)
	}
}

// compositeTree: a Workload with a CompositePodGroupTemplate and the v1alpha3 objects made from
// it: a root CompositePodGroup (gang minGroupCount or basic, topology zone) over 2–3 gang
// PodGroups (topology rack), or over a middle CompositePodGroup (rack) holding the PodGroups.
func (g *gen) compositeTree() {
	root := g.nextUnit("cpg")
	wl := root + "-wl"
	pcn := g.priority()
	nested := g.r.Float64() < 0.3
	nChildren := 2 + g.r.IntN(2)
	all := g.r.Float64() < 0.3
	disruption := func() obj {
		if all {
			return obj{"all": obj{}}
		}
		return obj{"single": obj{}}
	}
	withPriority := func(spec obj) obj {
		if pcn != "" {
			spec["priorityClassName"] = pcn
		}
		neverForNonPreempting(spec, pcn)
		return spec
	}
	cpgPolicy := func(children int) obj {
		if g.r.Float64() < 0.2 {
			return obj{"basic": obj{}}
		}
		return obj{"gang": obj{"minGroupCount": 1 + g.r.IntN(children)}}
	}
	rootPolicy := cpgPolicy(map[bool]int{true: 1, false: nChildren}[nested])
	rootConstraints := obj{"topology": []any{obj{"key": zoneKey}}}
	useZone := g.r.Float64() < 0.6
	leafRack := g.r.Float64() < 0.5
	type leaf struct {
		name           string
		minCount, pods int
		cpu, mem       int64
	}
	var leaves []leaf
	var leafTemplates []any
	for c := 0; c < nChildren; c++ {
		n := 1 + g.r.IntN(4)
		l := leaf{name: fmt.Sprintf("%s-pg%d", root, c), minCount: n - g.r.IntN(min(n, 2)), pods: n}
		l.cpu, l.mem = g.podSize()
		leaves = append(leaves, l)
		tpl := obj{"name": fmt.Sprintf("pg%d", c), "schedulingPolicy": obj{"gang": obj{"minCount": l.minCount}},
			"disruptionMode": disruption()}
		if leafRack && !nested {
			tpl["schedulingConstraints"] = obj{"topology": []any{obj{"key": rackKey}}}
		}
		leafTemplates = append(leafTemplates, tpl)
	}
	rootTpl := obj{"name": "root", "schedulingPolicy": rootPolicy, "disruptionMode": disruption()}
	if useZone {
		rootTpl["schedulingConstraints"] = rootConstraints
	}
	midPolicy := obj{}
	if nested {
		midPolicy = cpgPolicy(nChildren)
		rootTpl["compositePodGroupTemplates"] = []any{obj{"name": "mid", "schedulingPolicy": midPolicy,
			"schedulingConstraints": obj{"topology": []any{obj{"key": rackKey}}},
			"disruptionMode":        disruption(), "podGroupTemplates": leafTemplates}}
	} else {
		rootTpl["podGroupTemplates"] = leafTemplates
	}
	g.groups = append(g.groups, obj{"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "Workload",
		"metadata": obj{"name": wl, "namespace": ns},
		"spec":     obj{"compositePodGroupTemplates": []any{rootTpl}}})
	rootSpec := withPriority(obj{"workloadRef": obj{"workloadName": wl, "templateName": "root"},
		"schedulingPolicy": rootPolicy, "disruptionMode": disruption()})
	if useZone {
		rootSpec["schedulingConstraints"] = rootConstraints
	}
	g.groups = append(g.groups, obj{"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "CompositePodGroup",
		"metadata": obj{"name": root, "namespace": ns}, "spec": rootSpec})
	parent := root
	if nested {
		parent = root + "-mid"
		g.groups = append(g.groups, obj{"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "CompositePodGroup",
			"metadata": obj{"name": parent, "namespace": ns},
			"spec": withPriority(obj{"parentCompositePodGroupName": root,
				"workloadRef":           obj{"workloadName": wl, "templateName": "mid"},
				"schedulingPolicy":      midPolicy,
				"schedulingConstraints": obj{"topology": []any{obj{"key": rackKey}}},
				"disruptionMode":        disruption()})})
	}
	for c, l := range leaves {
		spec := withPriority(obj{"parentCompositePodGroupName": parent,
			"workloadRef":      obj{"workloadName": wl, "templateName": fmt.Sprintf("pg%d", c)},
			"schedulingPolicy": obj{"gang": obj{"minCount": l.minCount}},
			"disruptionMode":   disruption()})
		if leafRack && !nested {
			spec["schedulingConstraints"] = obj{"topology": []any{obj{"key": rackKey}}}
		}
		g.groups = append(g.groups, obj{"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "PodGroup",
			"metadata": obj{"name": l.name, "namespace": ns}, "spec": spec})
		for m := 0; m < l.pods; m++ {
			g.pods = append(g.pods, g.pod(fmt.Sprintf("%s-%d", l.name, m), root, pcn, l.name, "", l.cpu, l.mem))
		}
	}
}

// job: a batch/v1 Indexed Job with `.spec.scheduling` (gang with minCount unset or set, or basic;
// optional topology; disruptionMode), whose Workload, PodGroup and pods the Job controller makes.
func (g *gen) job() {
	name := g.nextUnit("job")
	p := 2 + g.r.IntN(5)
	sched := obj{}
	gang := g.r.Float64() < 0.75
	if gang {
		gp := obj{}
		if g.r.Float64() < 0.5 {
			gp["minCount"] = p - g.r.IntN(2)
		}
		sched["schedulingPolicy"] = obj{"gang": gp}
		if g.r.Float64() < 0.4 {
			sched["schedulingConstraints"] = obj{"topology": []any{obj{"key": []string{zoneKey, rackKey}[g.r.IntN(2)]}}}
		}
		if g.r.Float64() < 0.4 {
			sched["disruptionMode"] = obj{"all": obj{}}
		}
	} else {
		sched["schedulingPolicy"] = obj{"basic": obj{}}
		if g.r.Float64() < 0.3 {
			sched["disruptionMode"] = obj{"single": obj{}}
		}
	}
	cpu, mem := g.podSize()
	podSpec := obj{"restartPolicy": "Never", "containers": []any{obj{"name": "main", "image": "registry.k8s.io/pause:3.10",
		"resources": obj{"requests": obj{"cpu": milli(cpu), "memory": mebi(mem)}}}}}
	if g.r.Float64() < 0.3 {
		podSpec["priorityClassName"] = []string{"low", "mid", "high"}[g.r.IntN(3)]
	}
	g.jobs = append(g.jobs, obj{"apiVersion": "batch/v1", "kind": "Job",
		"metadata": obj{"name": name, "namespace": ns},
		"spec": obj{"parallelism": p, "completions": p, "completionMode": "Indexed", "backoffLimit": 0,
			"scheduling": sched,
			"template":   obj{"metadata": obj{"labels": obj{"app": name}}, "spec": podSpec}}})
}
