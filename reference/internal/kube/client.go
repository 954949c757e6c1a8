// Package kube connects wasched-reference to the running v1.37.2 control plane
// (scripts/reference.sh): a typed clientset, a dynamic client and a discovery-backed REST
// mapper that turns an unstructured object's apiVersion/kind into its resource. Safe for
// concurrent use once built.
package kube

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

// Client bundles what every subcommand needs.
type Client struct {
	Config *rest.Config
	Core   kubernetes.Interface
	Dyn    dynamic.Interface
	mapper meta.ResettableRESTMapper
	mu     sync.Mutex
}

// Connect builds the clients from an admin kubeconfig. Client-side rate limiting is lifted
// (QPS 2000): the control plane is on loopback and only this tool and the components use it.
func Connect(kubeconfig string) (*Client, error) {
	if kubeconfig == "" {
		return nil, fmt.Errorf("no kubeconfig: pass --kubeconfig or set KUBECONFIG (scripts/reference.sh kubeconfig prints it)")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	cfg.QPS = 2000
	cfg.Burst = 4000
	cfg.UserAgent = "wasched-reference"
	core, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
	return &Client{Config: cfg, Core: core, Dyn: dyn, mapper: mapper}, nil
}

// Mapping resolves apiVersion/kind to the resource and its scope. An unserved kind is an error
// naming the apiVersion and kind.
func (c *Client) Mapping(gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil && meta.IsNoMatchError(err) {
		c.mapper.Reset() // discovery may predate a just-enabled API
		m, err = c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s is not served by the API server: %v", gvk.GroupVersion().String(), gvk.Kind, err)
	}
	return m, nil
}

// ResourceFor returns the dynamic resource interface for u (namespaced when the kind is).
func (c *Client) ResourceFor(u *unstructured.Unstructured) (dynamic.ResourceInterface, *meta.RESTMapping, error) {
	m, err := c.Mapping(u.GroupVersionKind())
	if err != nil {
		return nil, nil, err
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		ns := u.GetNamespace()
		if ns == "" {
			ns = "default"
			u.SetNamespace(ns)
		}
		return c.Dyn.Resource(m.Resource).Namespace(ns), m, nil
	}
	u.SetNamespace("")
	return c.Dyn.Resource(m.Resource), m, nil
}

// Namespaced says whether the kind is namespaced.
func (c *Client) Namespaced(gvk schema.GroupVersionKind) (bool, error) {
	m, err := c.Mapping(gvk)
	if err != nil {
		return false, err
	}
	return m.Scope.Name() == meta.RESTScopeNameNamespace, nil
}

// ServerVersion returns the API server's gitVersion (e.g. "v1.37.2").
func (c *Client) ServerVersion(ctx context.Context) (string, error) {
	v, err := c.Core.Discovery().ServerVersion()
	if err != nil {
		return "", err
	}
	return v.GitVersion, nil
}

// Well-known resources the tool lists and watches itself.
var (
	PodGroups          = schema.GroupVersionResource{Group: "scheduling.k8s.io", Version: "v1beta1", Resource: "podgroups"}
	Workloads          = schema.GroupVersionResource{Group: "scheduling.k8s.io", Version: "v1beta1", Resource: "workloads"}
	CompositePodGroups = schema.GroupVersionResource{Group: "scheduling.k8s.io", Version: "v1alpha3", Resource: "compositepodgroups"}
	ResourceClaims     = schema.GroupVersionResource{Group: "resource.k8s.io", Version: "v1", Resource: "resourceclaims"}
	Namespaces         = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

// IsAPIGroup reports whether apiVersion belongs to group (the part before the slash; "" is core).
func IsAPIGroup(apiVersion, group string) bool {
	g := ""
	if i := strings.Index(apiVersion, "/"); i >= 0 {
		g = apiVersion[:i]
	}
	return g == group
}
