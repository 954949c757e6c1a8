package main

// The `affinity` family (-family affinity): seeded random small clusters for the pod-dependent
// plugins of the default profile — InterPodAffinity, PodTopologySpread and NodePorts — on bare
// pods and on gangs (issue 19's acceptance: wasched agrees with the v1.37.2 control plane).
//
// Each case is 3–12 nodes over 1–3 zones (labels kubernetes.io/hostname and
// topology.kubernetes.io/zone; sometimes a node without a zone label), each node its own CPU and
// memory band (score ties are rare), some with a `disk=ssd` label (node affinity, so that
// nodeAffinityPolicy matters) or a `dedicated=infra:NoSchedule` taint (nodeTaintsPolicy).
// Running pods in namespaces `default` and `team-b` carry labels (app, tier, ver), and some carry
// required anti-affinity, required or preferred affinity and host ports, so the symmetric rules
// apply. Pending units are bare pods and gang PodGroups (scheduling.k8s.io/v1beta1, gang
// minCount) whose pods carry required / preferred pod affinity and anti-affinity (hostname and
// zone keys; namespaces, namespaceSelector on kubernetes.io/metadata.name, matchLabelKeys,
// mismatchLabelKeys), topologySpreadConstraints (DoNotSchedule / ScheduleAnyway, maxSkew,
// minDomains, nodeAffinityPolicy, nodeTaintsPolicy, matchLabelKeys) and host ports. Shapes follow
// k8s.io/api v0.37.2 core/v1; every case is valid for both tools (matchLabelKeys never repeat a
// labelSelector key, minDomains only with DoNotSchedule, one constraint per (topologyKey,
// whenUnsatisfiable), distinct host ports within a pod, no empty namespaceSelector).

import (
	"fmt"
	"math/rand/v2"
)

const hostKey = "kubernetes.io/hostname"

// affinityStream keeps the affinity family's PCG streams apart from the default family's.
const affinityStream = 0xaff1

// AffinityCaseName: the folder name of affinity case `i` of `seed`.
func AffinityCaseName(seed uint64, i int) string { return fmt.Sprintf("a%d-%04d", seed, i) }

var (
	affApps  = []string{"web", "db", "cache", "batch"}
	affTiers = []string{"front", "back"}
	affVers  = []string{"v1", "v2"}
)

// GenerateAffinity: the files of affinity case `i` of `seed`.
func GenerateAffinity(seed uint64, i int) []file {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i)+1+affinityStream<<32)), name: AffinityCaseName(seed, i)}
	// nodeAffinityPolicy Ignore makes the reference run the case alone (every case's nodes would
	// be domains in a shared run), which costs a whole control-plane run: 1 case in 40 may use it.
	g.ignoreOK = g.r.Float64() < 0.025
	g.affNodes()
	g.affRunning()
	units := 1 + g.r.IntN(5)
	for u := 0; u < units; u++ {
		if g.r.Float64() < 0.5 {
			g.affGang()
		} else {
			g.affBare()
		}
	}
	return g.files()
}

// affNodes: 3–12 nodes, distinct sizes, optional ssd label, infra taint, a missing zone label.
func (g *gen) affNodes() {
	n := 3 + g.r.IntN(10)
	nz := 1 + g.r.IntN(min(3, n))
	cpuBand := g.r.Perm(n)
	memBand := g.r.Perm(n)
	ssd := g.r.Float64() < 0.4
	taints := g.r.Float64() < 0.3
	noZone := -1
	if nz > 1 && g.r.Float64() < 0.1 {
		noZone = g.r.IntN(n)
	}
	for z := 0; z < nz; z++ {
		g.zones = append(g.zones, fmt.Sprintf("zone-%c", 'a'+z))
	}
	for k := 0; k < n; k++ {
		nd := &node{
			name: fmt.Sprintf("node-%02d", k),
			zone: g.zones[k%nz],
			cpu:  2000 + int64(cpuBand[k])*750 + int64(g.r.IntN(500)),
			mem:  4096 + int64(memBand[k])*2048 + int64(g.r.IntN(1024)),
		}
		nd.freeCPU, nd.freeMem, nd.freePods = nd.cpu, nd.mem, 110
		g.maxCPU = max(g.maxCPU, nd.cpu)
		g.nodes = append(g.nodes, nd)
		labels := obj{hostKey: nd.name}
		if k != noZone {
			labels[zoneKey] = nd.zone
		} else {
			nd.zone = ""
		}
		if ssd && g.r.Float64() < 0.5 {
			labels["disk"] = "ssd"
			nd.rack = "ssd" // rack doubles as the disk label here
		}
		o := obj{"apiVersion": "v1", "kind": "Node", "metadata": obj{"name": nd.name, "labels": labels}}
		if taints && g.r.Float64() < 0.25 {
			nd.tainted = true
			g.hasTaint = true
			o["spec"] = obj{"taints": []any{obj{"key": "dedicated", "value": "infra", "effect": "NoSchedule"}}}
		}
		alloc := obj{"cpu": milli(nd.cpu), "memory": mebi(nd.mem), "pods": "110"}
		o["status"] = obj{"capacity": alloc, "allocatable": alloc}
		g.cluster = append(g.cluster, o)
	}
}

func (g *gen) pick(list []string) string { return list[g.r.IntN(len(list))] }

// affSize: small requests (100m–1500m CPU, 128 MiB–2 GiB), so that terms, not capacity, decide.
func (g *gen) affSize() (cpu, mem int64) {
	return 100 + 50*int64(g.r.IntN(29)), 128 * int64(1+g.r.IntN(16))
}

func (g *gen) affNamespace() string {
	if g.r.Float64() < 0.2 {
		return "team-b"
	}
	return ns
}

// affPod: a pod in namespace `namespace` with labels app/tier/ver.
func (g *gen) affPod(name, namespace string, labels obj, group, node string, cpu, mem int64) obj {
	p := g.pod(name, "", "", group, node, cpu, mem)
	meta := p["metadata"].(obj)
	meta["namespace"] = namespace
	meta["labels"] = labels
	return p
}

func (g *gen) affLabels(app string) obj {
	return obj{"app": app, "tier": g.pick(affTiers), "ver": g.pick(affVers)}
}

// selector: a label selector on app (matchLabels or an In / NotIn / Exists expression), sometimes
// with tier.
func (g *gen) selector(app string) obj {
	switch x := g.r.Float64(); {
	case x < 0.6:
		s := obj{"matchLabels": obj{"app": app}}
		if g.r.Float64() < 0.2 {
			s["matchLabels"].(obj)["tier"] = g.pick(affTiers)
		}
		return s
	case x < 0.8:
		other := g.pick(affApps)
		vals := []any{app}
		if other != app {
			vals = append(vals, other)
		}
		return obj{"matchExpressions": []any{obj{"key": "app", "operator": "In", "values": vals}}}
	case x < 0.9:
		return obj{"matchExpressions": []any{obj{"key": "app", "operator": "NotIn", "values": []any{app}}}}
	default:
		return obj{"matchExpressions": []any{obj{"key": "tier", "operator": "Exists"}}}
	}
}

// podTerm: a PodAffinityTerm against pods of `app`, key hostname or zone, sometimes with other
// namespaces, a namespaceSelector on the namespace name, matchLabelKeys or mismatchLabelKeys (on
// `ver`, which no selector names).
func (g *gen) podTerm(app string) obj {
	t := obj{"labelSelector": g.selector(app), "topologyKey": []string{hostKey, zoneKey}[g.r.IntN(2)]}
	switch x := g.r.Float64(); {
	case x < 0.15:
		t["namespaces"] = []any{"default", "team-b"}
	case x < 0.25:
		t["namespaceSelector"] = obj{"matchExpressions": []any{obj{"key": "kubernetes.io/metadata.name",
			"operator": "In", "values": []any{g.pick([]string{"default", "team-b"})}}}}
	}
	switch x := g.r.Float64(); {
	case x < 0.15:
		t["matchLabelKeys"] = []any{"ver"}
	case x < 0.25:
		t["mismatchLabelKeys"] = []any{"ver"}
	}
	return t
}

// affinity: a random pod affinity / anti-affinity block for a pod of `app` (nil for none). `self`
// adds the exclusive hostname anti-affinity against its own app (JobSet's exclusive placement
// shape).
func (g *gen) affinity(app string, running bool) obj {
	aff := obj{}
	add := func(kind, list string, v any) {
		k, ok := aff[kind].(obj)
		if !ok {
			k = obj{}
			aff[kind] = k
		}
		l, _ := k[list].([]any)
		k[list] = append(l, v)
	}
	const req, pref = "requiredDuringSchedulingIgnoredDuringExecution", "preferredDuringSchedulingIgnoredDuringExecution"
	pReq, pPref := 0.25, 0.25
	if running {
		pReq, pPref = 0.2, 0.2
	}
	if g.r.Float64() < 0.25 {
		add("podAntiAffinity", req, obj{"labelSelector": obj{"matchLabels": obj{"app": app}}, "topologyKey": hostKey})
	}
	if g.r.Float64() < pReq {
		add("podAntiAffinity", req, g.podTerm(g.pick(affApps)))
	}
	if g.r.Float64() < pReq {
		add("podAffinity", req, g.podTerm(g.pick(affApps)))
	}
	for k := 0; k < 2; k++ {
		if g.r.Float64() < pPref {
			add("podAffinity", pref, obj{"weight": 1 + g.r.IntN(100), "podAffinityTerm": g.podTerm(g.pick(affApps))})
		}
		if g.r.Float64() < pPref {
			add("podAntiAffinity", pref, obj{"weight": 1 + g.r.IntN(100), "podAffinityTerm": g.podTerm(g.pick(affApps))})
		}
	}
	if len(aff) == 0 {
		return nil
	}
	return aff
}

// spread: 0–2 topologySpreadConstraints over the pod's own app.
func (g *gen) spread(app string) []any {
	if g.r.Float64() < 0.45 {
		return nil
	}
	var out []any
	used := map[string]bool{}
	for k := 0; k < 1+g.r.IntN(2); k++ {
		key := []string{hostKey, zoneKey}[g.r.IntN(2)]
		when := []string{"DoNotSchedule", "ScheduleAnyway"}[g.r.IntN(2)]
		if used[key+when] {
			continue
		}
		used[key+when] = true
		c := obj{"maxSkew": 1 + g.r.IntN(2), "topologyKey": key, "whenUnsatisfiable": when,
			"labelSelector": obj{"matchLabels": obj{"app": app}}}
		if when == "DoNotSchedule" && g.r.Float64() < 0.3 {
			c["minDomains"] = 1 + g.r.IntN(4)
		}
		if g.r.Float64() < 0.25 {
			c["nodeAffinityPolicy"] = "Honor"
			if g.ignoreOK {
				c["nodeAffinityPolicy"] = "Ignore"
			}
		}
		if g.r.Float64() < 0.3 {
			c["nodeTaintsPolicy"] = []string{"Honor", "Ignore"}[g.r.IntN(2)]
		}
		if g.r.Float64() < 0.2 {
			c["matchLabelKeys"] = []any{"ver"}
		}
		out = append(out, c)
	}
	return out
}

// decorate: the affinity, spread, host port, node affinity and toleration of a pod spec.
func (g *gen) decorate(p obj, app string, aff obj, spread []any, port int, ssd, tolerate bool) {
	spec := p["spec"].(obj)
	if aff != nil {
		spec["affinity"] = aff
	}
	if spread != nil {
		spec["topologySpreadConstraints"] = spread
	}
	if port != 0 {
		c := spec["containers"].([]any)[0].(obj)
		proto := "TCP"
		if port%2 == 1 {
			proto = "UDP"
		}
		c["ports"] = []any{obj{"containerPort": 80, "hostPort": port, "protocol": proto}}
	}
	if ssd {
		a, _ := spec["affinity"].(obj)
		if a == nil {
			a = obj{}
			spec["affinity"] = a
		}
		a["nodeAffinity"] = obj{"requiredDuringSchedulingIgnoredDuringExecution": obj{"nodeSelectorTerms": []any{
			obj{"matchExpressions": []any{obj{"key": "disk", "operator": "In", "values": []any{"ssd"}}}}}}}
	}
	if tolerate {
		spec["tolerations"] = []any{obj{"key": "dedicated", "operator": "Equal", "value": "infra", "effect": "NoSchedule"}}
	}
}

func (g *gen) hostPort() int {
	if g.r.Float64() < 0.2 {
		return 8080 + g.r.IntN(3)
	}
	return 0
}

// affRunning: 0–12 running pods on random nodes with room, some with terms and host ports.
func (g *gen) affRunning() {
	if g.r.Float64() < 0.15 {
		return
	}
	n := g.r.IntN(13)
	for k := 0; k < n; k++ {
		cpu, mem := g.affSize()
		nd := g.place(cpu, mem)
		if nd == nil {
			continue
		}
		app := g.pick(affApps)
		p := g.affPod(fmt.Sprintf("run-%d", k), g.affNamespace(), g.affLabels(app), "", nd.name, cpu, mem)
		var aff obj
		if g.r.Float64() < 0.4 {
			aff = g.affinity(app, true)
		}
		g.decorate(p, app, aff, nil, g.hostPort(), false, nd.tainted)
		g.running = append(g.running, p)
	}
}

// unitTerms: what every pod of a pending unit carries.
type unitTerms struct {
	app, namespace string
	labels         obj
	aff            obj
	spread         []any
	port           int
	ssd, tolerate  bool
}

func (g *gen) unitTerms() unitTerms {
	app := g.pick(affApps)
	u := unitTerms{app: app, namespace: g.affNamespace(), labels: g.affLabels(app)}
	u.aff = g.affinity(app, false)
	u.spread = g.spread(app)
	u.port = g.hostPort()
	for _, nd := range g.nodes {
		if nd.rack == "ssd" {
			u.ssd = g.r.Float64() < 0.2
			break
		}
	}
	u.tolerate = g.hasTaint && g.r.Float64() < 0.5
	return u
}

func (g *gen) affBare() {
	name := g.nextUnit("bare")
	u := g.unitTerms()
	cpu, mem := g.affSize()
	for m := 0; m < 1+g.r.IntN(3); m++ {
		p := g.affPod(fmt.Sprintf("%s-%d", name, m), u.namespace, u.labels, "", "", cpu, mem)
		g.decorate(p, u.app, u.aff, u.spread, u.port, u.ssd, u.tolerate)
		g.pods = append(g.pods, p)
	}
}

// affGang: a gang PodGroup (minCount ≤ its 2–5 pods) whose members share terms; half of the gangs
// are node-exclusive (hostname anti-affinity against their own pods).
func (g *gen) affGang() {
	name := g.nextUnit("gang")
	u := g.unitTerms()
	u.labels["group"] = name
	if g.r.Float64() < 0.5 {
		if u.aff == nil {
			u.aff = obj{}
		}
		anti, _ := u.aff["podAntiAffinity"].(obj)
		if anti == nil {
			anti = obj{}
			u.aff["podAntiAffinity"] = anti
		}
		const req = "requiredDuringSchedulingIgnoredDuringExecution"
		l, _ := anti[req].([]any)
		anti[req] = append(l, obj{"labelSelector": obj{"matchLabels": obj{"group": name}}, "topologyKey": hostKey})
	}
	n := 2 + g.r.IntN(4)
	minCount := n - g.r.IntN(2)
	g.groups = append(g.groups, obj{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
		"metadata": obj{"name": name, "namespace": u.namespace},
		"spec":     obj{"schedulingPolicy": obj{"gang": obj{"minCount": minCount}}}})
	cpu, mem := g.affSize()
	for m := 0; m < n; m++ {
		p := g.affPod(fmt.Sprintf("%s-%d", name, m), u.namespace, u.labels, name, "", cpu, mem)
		g.decorate(p, u.app, u.aff, u.spread, u.port, u.ssd, u.tolerate)
		g.pods = append(g.pods, p)
	}
}
