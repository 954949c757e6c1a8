// Unit tests of wasched-live's offline parts: scenario selection, percentiles, and the deploy/
// manifests (they decode into the types the cluster serves and say what the driver relies on).
package main

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

func TestSelectScenarios(t *testing.T) {
	all, err := selectScenarios([]string{"all"})
	if err != nil || len(all) != len(scenarios()) {
		t.Fatalf("all: %d scenarios, err %v", len(all), err)
	}
	two, err := selectScenarios([]string{"job", "leader"})
	if err != nil || len(two) != 2 || two[0].name != "job" || two[1].name != "leader" {
		t.Fatalf("job leader: %v, err %v", two, err)
	}
	if _, err := selectScenarios([]string{"nope"}); err == nil {
		t.Fatal("unknown scenario accepted")
	}
	if _, err := selectScenarios(nil); err == nil {
		t.Fatal("no scenario accepted")
	}
}

func TestPercentile(t *testing.T) {
	v := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tc := range []struct{ q, want float64 }{{0.5, 5}, {0.99, 10}, {0, 1}, {1, 10}} {
		if got := percentile(v, tc.q); got != tc.want {
			t.Errorf("percentile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if percentile(nil, 0.5) != 0 {
		t.Error("empty input")
	}
}

func TestDeployRBAC(t *testing.T) {
	objs, err := decodeFile("../../../deploy/rbac.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var sa *v1.ServiceAccount
	var role *rbacv1.ClusterRole
	var binding *rbacv1.ClusterRoleBinding
	for _, o := range objs {
		switch x := o.(type) {
		case *v1.ServiceAccount:
			sa = x
		case *rbacv1.ClusterRole:
			role = x
		case *rbacv1.ClusterRoleBinding:
			binding = x
		default:
			t.Errorf("unexpected %T", o)
		}
	}
	if sa == nil || sa.Namespace != "kube-system" || sa.Name != "wasched" {
		t.Fatalf("ServiceAccount: %+v", sa)
	}
	if role == nil || binding == nil || binding.RoleRef.Name != role.Name ||
		len(binding.Subjects) != 1 || binding.Subjects[0].Name != sa.Name || binding.Subjects[0].Namespace != sa.Namespace {
		t.Fatalf("role %v binding %v", role, binding)
	}
	allows := func(group, resource, verb string) bool {
		for _, r := range role.Rules {
			if slices.Contains(r.APIGroups, group) && slices.Contains(r.Resources, resource) && slices.Contains(r.Verbs, verb) {
				return true
			}
		}
		return false
	}
	for _, want := range [][3]string{
		{"", "pods/binding", "create"}, {"", "pods", "watch"}, {"", "nodes", "list"}, {"", "pods", "delete"},
		{"", "pods/status", "patch"}, {"scheduling.k8s.io", "podgroups/status", "update"},
		{"scheduling.k8s.io", "compositepodgroups", "watch"}, {"coordination.k8s.io", "leases", "update"},
		{"events.k8s.io", "events", "create"}, {"batch", "jobs", "watch"}, {"resource.k8s.io", "resourceclaims/status", "update"},
	} {
		if !allows(want[0], want[1], want[2]) {
			t.Errorf("ClusterRole does not allow %s %s/%s", want[2], want[0], want[1])
		}
	}
	for _, never := range [][3]string{{"", "pods", "create"}, {"", "nodes", "update"}, {"", "secrets", "get"}, {"*", "*", "*"}} {
		if allows(never[0], never[1], never[2]) {
			t.Errorf("ClusterRole allows %s %s/%s: more than least rights", never[2], never[0], never[1])
		}
	}
}

func TestDeployDeploymentAndConfig(t *testing.T) {
	objs, err := decodeFile("../../../deploy/deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := objs[0].(*appsv1.Deployment)
	if len(objs) != 1 || !ok {
		t.Fatalf("deployment.yaml: %v", objs)
	}
	c := d.Spec.Template.Spec.Containers[0]
	if d.Spec.Template.Spec.ServiceAccountName != "wasched" || len(c.Args) == 0 || c.Args[0] != "run" ||
		!slices.Contains(c.Args, "--kubeconfig=") || !slices.Contains(c.Args, "--config=/etc/wasched/config.yaml") {
		t.Errorf("deployment: serviceAccount %q args %v", d.Spec.Template.Spec.ServiceAccountName, c.Args)
	}
	objs, err = decodeFile("../../../deploy/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cm, ok := objs[0].(*v1.ConfigMap)
	if len(objs) != 1 || !ok {
		t.Fatalf("config.yaml: %v", objs)
	}
	var cfg struct {
		APIVersion     string `json:"apiVersion"`
		Kind           string `json:"kind"`
		LeaderElection struct {
			LeaderElect bool `json:"leaderElect"`
		} `json:"leaderElection"`
		Profiles []struct {
			SchedulerName string `json:"schedulerName"`
		} `json:"profiles"`
	}
	if err := yaml.Unmarshal([]byte(cm.Data["config.yaml"]), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.APIVersion != "kubescheduler.config.k8s.io/v1" || cfg.Kind != "KubeSchedulerConfiguration" ||
		len(cfg.Profiles) != 1 || cfg.Profiles[0].SchedulerName != "wasched" || !cfg.LeaderElection.LeaderElect {
		t.Errorf("config.yaml: %+v", cfg)
	}
}
