// live.go: the scenarios about running as a live process: a refused binding, a crash in the
// middle of a gang, leader election, bad setups (exit codes) and least-rights RBAC. All but
// bind-failure need --wasched (they start and kill `wasched run` themselves).
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	admv1 "k8s.io/api/admissionregistration/v1"
	authv1 "k8s.io/api/authentication/v1"
	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"
)

// refusal is the message of bind-failure's admission policy.
const refusal = "wasched-live: binding refused on purpose"

// bindFailure makes every binding in the scenario's namespace fail, deterministically: a
// ValidatingAdmissionPolicy on CREATE pods/binding (expression false) bound to that namespace.
// A gang of 4 pods (fits easily on 2 nodes of 4 CPUs) arrives; once the refusal is reported (an
// event or a pod condition quoting the API server's message) the policy binding is deleted and
// the gang must end whole — no pod bound before, all 4 after, none bound twice. It exercises the
// bind error path: the assumed placement is forgotten, the gang requeued and retried, not stuck.
//
// Admission policies have no watchable "active" state: before the gang is created, a probe pod
// (served by no scheduler) is bound with dryRun=All every 100 ms until the API server refuses
// it (30 s deadline) — the one poll of this driver, on a state the API does not expose.
func bindFailure(s *sc) error {
	ns, err := s.namespace("")
	if err != nil {
		return err
	}
	pods, err := trackPods(s.ctx, s.cs, ns)
	if err != nil {
		return err
	}
	events, err := watchList(s.ctx, cache.NewListWatchFromClient(s.cs.EventsV1().RESTClient(), "events", ns, fields.Everything()), &eventsv1.Event{}, hooks{})
	if err != nil {
		return err
	}
	nodes, err := s.nodes(nodeSpec{prefix: "n", count: 2, cpu: "4"})
	if err != nil {
		return err
	}
	policy := &admv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: s.id},
		Spec: admv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: ptr(admv1.Fail),
			MatchConstraints: &admv1.MatchResources{ResourceRules: []admv1.NamedRuleWithOperations{{
				RuleWithOperations: admv1.RuleWithOperations{
					Operations: []admv1.OperationType{admv1.Create},
					Rule:       admv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods/binding"}},
				},
			}}},
			Validations: []admv1.Validation{{Expression: "false", Message: refusal}},
		},
	}
	adm := s.cs.AdmissionregistrationV1()
	if _, err := adm.ValidatingAdmissionPolicies().Create(s.ctx, policy, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create ValidatingAdmissionPolicy: %w", err)
	}
	s.cleanups = append(s.cleanups, func(ctx context.Context) {
		_ = adm.ValidatingAdmissionPolicyBindings().Delete(ctx, s.id, metav1.DeleteOptions{})
		_ = adm.ValidatingAdmissionPolicies().Delete(ctx, s.id, metav1.DeleteOptions{})
	})
	if _, err := adm.ValidatingAdmissionPolicyBindings().Create(s.ctx, &admv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: s.id},
		Spec: admv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        s.id,
			ValidationActions: []admv1.ValidationAction{admv1.Deny},
			MatchResources:    &admv1.MatchResources{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{liveLabel: s.id}}},
		},
	}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create ValidatingAdmissionPolicyBinding: %w", err)
	}
	probe := gangPod(gangSpec{ns: ns, name: "probe", cpu: "1"}, 0, "wasched-live-nobody", s.id)
	probe.Spec.SchedulingGroup = nil
	if _, err := s.cs.CoreV1().Pods(ns).Create(s.ctx, probe, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create probe pod: %w", err)
	}
	binding := &v1.Binding{ObjectMeta: metav1.ObjectMeta{Name: probe.Name}, Target: v1.ObjectReference{Kind: "Node", Name: nodes[0]}}
	var lastProbe error
	if err := wait.PollUntilContextTimeout(s.ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		lastProbe = s.cs.CoreV1().Pods(ns).Bind(ctx, binding, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return lastProbe != nil && strings.Contains(lastProbe.Error(), refusal), nil
	}); err != nil {
		return fmt.Errorf("the admission policy never refused a dry-run binding (last answer: %v): %w", lastProbe, err)
	}
	zero := int64(0)
	if err := s.cs.CoreV1().Pods(ns).Delete(s.ctx, probe.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		return fmt.Errorf("delete probe pod: %w", err)
	}
	if err := s.gang(gangSpec{ns: ns, name: "g", size: 4, cpu: "1"}); err != nil {
		return err
	}
	var seenIn string
	if err := untilAny(s.ctx, bindDeadline, "the refused binding reported (an event or a pod condition quoting it)", func() (bool, string) {
		for _, e := range list[*eventsv1.Event](events) {
			if strings.Contains(e.Note, refusal) {
				seenIn = fmt.Sprintf("event %s %q on %s", e.Type, e.Reason, e.Regarding.Name)
				return true, ""
			}
		}
		for _, p := range pods.pods() {
			for _, c := range p.Status.Conditions {
				if c.Type == v1.PodScheduled && strings.Contains(c.Message, refusal) {
					seenIn = fmt.Sprintf("pod %s condition PodScheduled=%s reason %q", p.Name, c.Status, c.Reason)
					return true, ""
				}
			}
		}
		b, _ := pods.boundCount(inGang("g"))
		return false, fmt.Sprintf("nothing yet, %d bound", b)
	}, events, pods.watched); err != nil {
		return err
	}
	if b, _ := pods.boundCount(inGang("g")); b != 0 {
		return fmt.Errorf("%d pods bound while every binding is refused", b)
	}
	if err := adm.ValidatingAdmissionPolicyBindings().Delete(s.ctx, s.id, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete the policy binding: %w", err)
	}
	lifted := time.Now()
	if err := pods.waitBound(s.ctx, 2*bindDeadline, "the gang bound whole once bindings are allowed again", 4, inGang("g")); err != nil {
		return err
	}
	if p := pods.problems(); len(p) > 0 {
		return fmt.Errorf("%s", strings.Join(p, "; "))
	}
	s.note("refusal reported as %s; 4/4 bound %.1fs after the policy was lifted", seenIn, time.Since(lifted).Seconds())
	return nil
}

// crashRecovery: 10 nodes of 4 CPUs, a gang of 200 pods of 100m (minCount 200); `wasched run` is
// killed with SIGKILL as soon as the watch shows the first pod bound, then started again → all
// 200 bound, none bound twice or deleted, PodGroupInitiallyScheduled=True.
func crashRecovery(s *sc) error {
	ns, pods, pgs, err := s.arena(nodeSpec{prefix: "n", count: 10, cpu: "4"}, true)
	if err != nil {
		return err
	}
	first, err := s.start("first", runOpts{})
	if err != nil {
		return err
	}
	if err := s.gang(gangSpec{ns: ns, name: "big", size: 200, cpu: "100m"}); err != nil {
		return err
	}
	if err := pods.waitBound(s.ctx, 2*bindDeadline, "the first pod bound", 1, nil); err != nil {
		return err
	}
	if err := first.kill(); err != nil {
		return err
	}
	atKill, _ := pods.boundCount(nil)
	if _, err := s.start("second", runOpts{}); err != nil {
		return err
	}
	restarted := time.Now()
	if err := pods.waitBound(s.ctx, 2*bindDeadline, "all 200 pods bound after the restart", 200, nil); err != nil {
		return err
	}
	if p := pods.problems(); len(p) > 0 {
		return fmt.Errorf("%s", strings.Join(p, "; "))
	}
	if _, err := s.waitCondition(pgs, "big", metav1.ConditionTrue); err != nil {
		return err
	}
	s.note("%d/200 bound when killed (watch); 200/200 bound %.1fs after the restart, none twice", atKill, time.Since(restarted).Seconds())
	return nil
}

// leader: two `wasched run --leader-elect=true` with identities A and B on one Lease
// (kube-system/<scenario id>); the Lease names one of them; a gang binds; the holder is killed
// with SIGKILL; the Lease names the other within 15 s + 10 s; a new gang binds.
func leader(s *sc) error {
	ns, pods, _, err := s.arena(nodeSpec{prefix: "n", count: 4, cpu: "4"}, false)
	if err != nil {
		return err
	}
	lease := s.id
	s.cleanups = append(s.cleanups, func(ctx context.Context) {
		_ = s.cs.CoordinationV1().Leases("kube-system").Delete(ctx, lease, metav1.DeleteOptions{})
	})
	leases, err := watchList(s.ctx, cache.NewListWatchFromClient(s.cs.CoordinationV1().RESTClient(), "leases", "kube-system",
		fields.OneTermEqualSelector("metadata.name", lease)), &coordv1.Lease{}, hooks{})
	if err != nil {
		return err
	}
	ids := []string{s.id + "-a", s.id + "-b"}
	procs := map[string]*proc{}
	for _, id := range ids {
		p, err := s.start(id, runOpts{leaderElect: true, extra: []string{"--lease-namespace", "kube-system", "--lease-name", lease, "--identity", id}})
		if err != nil {
			return err
		}
		procs[id] = p
	}
	holder := func() (string, int32) {
		for _, l := range list[*coordv1.Lease](leases) {
			if l.Spec.HolderIdentity != nil {
				d := int32(0)
				if l.Spec.LeaseDurationSeconds != nil {
					d = *l.Spec.LeaseDurationSeconds
				}
				return *l.Spec.HolderIdentity, d
			}
		}
		return "", 0
	}
	var first string
	if err := leases.until(s.ctx, 30*time.Second, "the Lease held by one of the two", func() (bool, string) {
		first, _ = holder()
		return procs[first] != nil, fmt.Sprintf("holder %q", first)
	}); err != nil {
		return err
	}
	if err := s.gang(gangSpec{ns: ns, name: "one", size: 4, cpu: "1"}); err != nil {
		return err
	}
	if err := pods.waitBound(s.ctx, bindDeadline, "the first gang bound by the leader", 4, inGang("one")); err != nil {
		return err
	}
	if err := procs[first].kill(); err != nil {
		return err
	}
	killed := time.Now()
	var second string
	var duration int32
	if err := leases.until(s.ctx, 25*time.Second, "the Lease taken over by the other identity", func() (bool, string) {
		second, duration = holder()
		return second != first && procs[second] != nil, fmt.Sprintf("holder %q", second)
	}); err != nil {
		return err
	}
	takeover := time.Since(killed)
	if err := s.gang(gangSpec{ns: ns, name: "two", size: 4, cpu: "1"}); err != nil {
		return err
	}
	if err := pods.waitBound(s.ctx, bindDeadline, "the second gang bound by the new leader", 4, inGang("two")); err != nil {
		return err
	}
	if p := pods.problems(); len(p) > 0 {
		return fmt.Errorf("%s", strings.Join(p, "; "))
	}
	s.note("holder %s, killed; %s took over after %.1fs (leaseDurationSeconds %d); both gangs bound", first, second, takeover.Seconds(), duration)
	return nil
}

// badSetup: `wasched run` must refuse to start, with its documented exit code:
//   - a kubeconfig whose server is a port nothing listens on → exit 4, one "error:" line;
//   - a kubeconfig path that does not exist → exit 1;
//   - a bearer token the API server does not know (401) → exit 4;
//   - a ServiceAccount token (TokenRequest) without any RBAC rights → exit 4, "forbidden".
func badSetup(s *sc) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	wrongPort, err := s.writeKubeconfig("wrong-port.kubeconfig", fmt.Sprintf("https://127.0.0.1:%d", port), "")
	if err != nil {
		return err
	}
	ns, err := s.namespace("")
	if err != nil {
		return err
	}
	if _, err := s.cs.CoreV1().ServiceAccounts(ns).Create(s.ctx, &v1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "norights"}}, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create ServiceAccount: %w", err)
	}
	tok, err := s.token(ns, "norights")
	if err != nil {
		return err
	}
	noRights, err := s.writeKubeconfig("norights.kubeconfig", "", tok)
	if err != nil {
		return err
	}
	badToken, err := s.writeKubeconfig("bad-token.kubeconfig", "", "wasched-live-not-a-token")
	if err != nil {
		return err
	}
	cases := []struct {
		name, kubeconfig string
		code             int
		contains         string
	}{
		{"wrong-port", wrongPort, 4, ""},
		{"missing-kubeconfig", s.dir + "/does-not-exist.kubeconfig", 1, ""},
		{"bad-token", badToken, 4, ""},
		{"no-rbac", noRights, 4, "forbidden"},
	}
	// Every case runs; the failures are reported together.
	var facts, fails []string
	for _, c := range cases {
		fact, err := s.expectExit(c.name, c.kubeconfig, c.code, c.contains)
		if err != nil {
			fails = append(fails, err.Error())
			continue
		}
		facts = append(facts, fact)
	}
	if len(fails) > 0 {
		return fmt.Errorf("%s", strings.Join(fails, "; "))
	}
	s.note("%s", strings.Join(facts, "; "))
	return nil
}

// expectExit runs `wasched run --kubeconfig K` and checks that it exits with code within 60 s
// with exactly one line starting with "error:" (containing contains, case-insensitively).
func (s *sc) expectExit(name, kubeconfig string, code int, contains string) (string, error) {
	bind, err := freePort()
	if err != nil {
		return "", err
	}
	start := time.Now()
	p, err := s.startRaw(name, true, "run", "--kubeconfig", kubeconfig, "--scheduler-name", s.opts.schedulerName,
		"--leader-elect=false", "--bind-address", fmt.Sprintf("127.0.0.1:%d", bind))
	if err != nil {
		return "", err
	}
	if err := p.waitExit(60 * time.Second); err != nil {
		_ = p.kill()
		return "", fmt.Errorf("%s: %w (want exit %d)", name, err, code)
	}
	out, _ := os.ReadFile(p.log)
	var errLines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "error:") {
			errLines = append(errLines, l)
		}
	}
	switch {
	case p.exitCode() != code:
		return "", fmt.Errorf("%s: exit %d, want %d", name, p.exitCode(), code)
	case len(errLines) != 1:
		return "", fmt.Errorf("%s: %d lines starting with \"error:\", want 1", name, len(errLines))
	case contains != "" && !strings.Contains(strings.ToLower(errLines[0]), contains):
		return "", fmt.Errorf("%s: %q does not contain %q", name, errLines[0], contains)
	}
	return fmt.Sprintf("%s exit %d in %.1fs: %s", name, code, time.Since(start).Seconds(), errLines[0]), nil
}

// token returns a one-hour token of ServiceAccount ns/name (TokenRequest).
func (s *sc) token(ns, name string) (string, error) {
	tr, err := s.cs.CoreV1().ServiceAccounts(ns).CreateToken(s.ctx, name, &authv1.TokenRequest{
		Spec: authv1.TokenRequestSpec{ExpirationSeconds: ptr(int64(3600))},
	}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("TokenRequest for %s/%s: %w", ns, name, err)
	}
	return tr.Status.Token, nil
}

// rbacScenario applies --rbac (deploy/rbac.yaml: ServiceAccount kube-system/wasched, its
// ClusterRole and ClusterRoleBinding), runs `wasched run` with a token of that ServiceAccount
// and leader election on, and passes gang-fits and dra: the least rights are enough, Lease and
// claim allocations included.
func rbacScenario(s *sc) error {
	objs, err := decodeFile(s.opts.rbacFile)
	if err != nil {
		return err
	}
	var sa *v1.ServiceAccount
	for _, o := range objs {
		if err := s.createOrUpdate(o); err != nil {
			return err
		}
		if a, ok := o.(*v1.ServiceAccount); ok {
			sa = a
		}
	}
	if sa == nil {
		return fmt.Errorf("%s has no ServiceAccount", s.opts.rbacFile)
	}
	tok, err := s.token(sa.Namespace, sa.Name)
	if err != nil {
		return err
	}
	kc, err := s.writeKubeconfig("rbac.kubeconfig", "", tok)
	if err != nil {
		return err
	}
	lease := s.id
	s.cleanups = append(s.cleanups, func(ctx context.Context) {
		_ = s.cs.CoordinationV1().Leases("kube-system").Delete(ctx, lease, metav1.DeleteOptions{})
	})
	if _, err := s.start("rbac", runOpts{kubeconfig: kc, leaderElect: true,
		extra: []string{"--lease-namespace", "kube-system", "--lease-name", lease, "--identity", s.id}}); err != nil {
		return err
	}
	ns, err := s.namespace("")
	if err != nil {
		return err
	}
	if err := fitsIn(s, ns); err != nil {
		return err
	}
	draNs, err := s.namespace("dra")
	if err != nil {
		return err
	}
	if err := draIn(s, draNs); err != nil {
		return fmt.Errorf("dra: %w", err)
	}
	l, err := s.cs.CoordinationV1().Leases("kube-system").Get(s.ctx, lease, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("Lease kube-system/%s: %w", lease, err)
	}
	if l.Spec.HolderIdentity == nil || *l.Spec.HolderIdentity != s.id {
		return fmt.Errorf("Lease kube-system/%s held by %v, want %s", lease, l.Spec.HolderIdentity, s.id)
	}
	s.note("as system:serviceaccount:%s:%s; Lease kube-system/%s held; claims written", sa.Namespace, sa.Name, lease)
	return nil
}

// decodeFile decodes every document of a YAML file into typed objects.
func decodeFile(path string) ([]runtime.Object, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := utilyaml.NewYAMLReader(bufio.NewReader(f))
	var out []runtime.Object
	for i := 1; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if strings.TrimSpace(stripComments(string(doc))) == "" {
			continue
		}
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(doc, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", path, i, err)
		}
		out = append(out, obj)
	}
}

func stripComments(doc string) string {
	var b strings.Builder
	for _, l := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// createOrUpdate creates one RBAC manifest object, updating it when it exists (and removes it
// at the end of the scenario).
func (s *sc) createOrUpdate(o runtime.Object) error {
	ctx := s.ctx
	var err error
	switch t := o.(type) {
	case *v1.ServiceAccount:
		_, err = s.cs.CoreV1().ServiceAccounts(t.Namespace).Create(ctx, t, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			err = nil
		}
		s.cleanups = append(s.cleanups, func(ctx context.Context) {
			_ = s.cs.CoreV1().ServiceAccounts(t.Namespace).Delete(ctx, t.Name, metav1.DeleteOptions{})
		})
	case *rbacv1.ClusterRole:
		_, err = s.cs.RbacV1().ClusterRoles().Create(ctx, t, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			var cur *rbacv1.ClusterRole
			if cur, err = s.cs.RbacV1().ClusterRoles().Get(ctx, t.Name, metav1.GetOptions{}); err == nil {
				t.ResourceVersion = cur.ResourceVersion
				_, err = s.cs.RbacV1().ClusterRoles().Update(ctx, t, metav1.UpdateOptions{})
			}
		}
		s.cleanups = append(s.cleanups, func(ctx context.Context) {
			_ = s.cs.RbacV1().ClusterRoles().Delete(ctx, t.Name, metav1.DeleteOptions{})
		})
	case *rbacv1.ClusterRoleBinding:
		_ = s.cs.RbacV1().ClusterRoleBindings().Delete(ctx, t.Name, metav1.DeleteOptions{}) // roleRef is immutable
		_, err = s.cs.RbacV1().ClusterRoleBindings().Create(ctx, t, metav1.CreateOptions{})
		s.cleanups = append(s.cleanups, func(ctx context.Context) {
			_ = s.cs.RbacV1().ClusterRoleBindings().Delete(ctx, t.Name, metav1.DeleteOptions{})
		})
	default:
		return fmt.Errorf("%s: unexpected %T (want ServiceAccount, ClusterRole, ClusterRoleBinding)", s.opts.rbacFile, o)
	}
	if err != nil {
		return fmt.Errorf("apply %s: %w", s.opts.rbacFile, err)
	}
	return nil
}
