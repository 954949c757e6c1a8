package lifecycle

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

const nodeNameIndex = "spec.nodeName"

// Controller watches Nodes and Pods and applies the decisions of status.go. Each object is handled
// by one worker at a time (workqueue semantics); a failed write (a conflict, most often) is retried
// with per-item exponential backoff from 5 ms to 10 s.
type Controller struct {
	client kubernetes.Interface
	nodes  corelisters.NodeLister
	pods   corelisters.PodLister
	byNode cache.Indexer
	synced []cache.InformerSynced

	nodeQueue workqueue.TypedRateLimitingInterface[string]
	podQueue  workqueue.TypedRateLimitingInterface[string]
	now       func() metav1.Time
}

// New wires a Controller to factory's Node and Pod informers; call before factory.Start.
func New(client kubernetes.Interface, factory informers.SharedInformerFactory) (*Controller, error) {
	limiter := func() workqueue.TypedRateLimiter[string] {
		return workqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 10*time.Second)
	}
	c := &Controller{
		client:    client,
		nodeQueue: workqueue.NewTypedRateLimitingQueueWithConfig(limiter(), workqueue.TypedRateLimitingQueueConfig[string]{Name: "nodes"}),
		podQueue:  workqueue.NewTypedRateLimitingQueueWithConfig(limiter(), workqueue.TypedRateLimitingQueueConfig[string]{Name: "pods"}),
		now:       metav1.Now,
	}
	nodeInformer := factory.Core().V1().Nodes()
	podInformer := factory.Core().V1().Pods()
	if err := podInformer.Informer().AddIndexers(cache.Indexers{nodeNameIndex: func(obj any) ([]string, error) {
		if pod, ok := obj.(*v1.Pod); ok && pod.Spec.NodeName != "" {
			return []string{pod.Spec.NodeName}, nil
		}
		return nil, nil
	}}); err != nil {
		return nil, err
	}
	c.nodes, c.pods = nodeInformer.Lister(), podInformer.Lister()
	c.byNode = podInformer.Informer().GetIndexer()

	onNode := func(obj any) {
		if node, ok := obj.(*v1.Node); ok {
			c.nodeQueue.Add(node.Name)
			// Pods bound before their Node existed can start now.
			pods, _ := c.byNode.ByIndex(nodeNameIndex, node.Name)
			for _, p := range pods {
				c.enqueuePod(p)
			}
		}
	}
	if _, err := nodeInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    onNode,
		UpdateFunc: func(_, obj any) { onNode(obj) },
	}); err != nil {
		return nil, err
	}
	if _, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueuePod,
		UpdateFunc: func(_, obj any) { c.enqueuePod(obj) },
	}); err != nil {
		return nil, err
	}
	c.synced = []cache.InformerSynced{nodeInformer.Informer().HasSynced, podInformer.Informer().HasSynced}
	return c, nil
}

func (c *Controller) enqueuePod(obj any) {
	if pod, ok := obj.(*v1.Pod); ok {
		c.podQueue.Add(pod.Namespace + "/" + pod.Name)
	}
}

// WaitForSync blocks until both informers have listed, or ctx ends (then false).
func (c *Controller) WaitForSync(ctx context.Context) bool {
	return cache.WaitForCacheSync(ctx.Done(), c.synced...)
}

// Run processes both queues with workers goroutines each until ctx ends.
func (c *Controller) Run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { drain(ctx, c.nodeQueue, c.syncNode) })
		wg.Go(func() { drain(ctx, c.podQueue, c.syncPod) })
	}
	<-ctx.Done()
	c.nodeQueue.ShutDown()
	c.podQueue.ShutDown()
	wg.Wait()
}

func drain(ctx context.Context, q workqueue.TypedRateLimitingInterface[string], sync func(context.Context, string) error) {
	for {
		key, quit := q.Get()
		if quit {
			return
		}
		if err := sync(ctx, key); err != nil {
			if !apierrors.IsConflict(err) && ctx.Err() == nil {
				slog.Warn("retrying", "key", key, "err", err)
			}
			q.AddRateLimited(key)
		} else {
			q.Forget(key)
		}
		q.Done(key)
	}
}

func (c *Controller) syncNode(ctx context.Context, name string) error {
	node, err := c.nodes.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil || !NodeNeedsReady(node) {
		return err
	}
	// Strategic merge: conditions merge by type, so the other conditions stay.
	patch, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": []v1.NodeCondition{ReadyCondition(c.now())}}})
	if err != nil {
		return err
	}
	_, err = c.client.CoreV1().Nodes().Patch(ctx, name, types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func (c *Controller) syncPod(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	pod, err := c.pods.Pods(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var node *v1.Node
	if pod.Spec.NodeName != "" {
		node, _ = c.nodes.Get(pod.Spec.NodeName)
	}
	pods := c.client.CoreV1().Pods(ns)
	switch DecidePod(pod, node != nil) {
	case PodStart:
		updated := pod.DeepCopy()
		updated.Status = RunningStatus(pod, internalIP(node), c.now())
		_, err = pods.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	case PodTerminate:
		updated := pod.DeepCopy()
		updated.Status = TerminatedStatus(pod, c.now())
		_, err = pods.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	case PodRemove:
		zero := int64(0)
		err = pods.Delete(ctx, name, metav1.DeleteOptions{
			GracePeriodSeconds: &zero,
			Preconditions:      &metav1.Preconditions{UID: &pod.UID},
		})
	}
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func internalIP(node *v1.Node) string {
	if node == nil {
		return ""
	}
	for _, a := range node.Status.Addresses {
		if a.Type == v1.NodeInternalIP {
			return a.Address
		}
	}
	return ""
}
