package api

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestDeliveryOperationsHaveTheirOwnLimit: with the default limits, 32
// concurrent updates of one delivery each get 200 or 409, never 429, while
// the planning operations keep the interface document's 10 a minute.
func TestDeliveryOperationsHaveTheirOwnLimit(t *testing.T) {
	e := newEnv(t, envOptions{defaultLimits: true})
	a := e.newTenant("Acme")
	id := e.book(a)
	const clients = 32
	statuses := make([]int, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			req, err := http.NewRequest(http.MethodPut, e.srv.URL+"/deliveries/"+id+"/update",
				strings.NewReader(fmt.Sprintf(`{"deliveries":{"customer":{"lastName":"Name%02d"}}}`, i)))
			if err != nil {
				t.Error(err)
				return
			}
			req.Header.Set("Authorization", "Bearer "+a.token)
			req.Header.Set(ConsumerHeader, a.consumer)
			req.Header.Set("Content-Type", "application/json")
			resp, err := e.srv.Client().Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			statuses[i] = resp.StatusCode
		})
	}
	wg.Wait()
	for i, st := range statuses {
		if st != http.StatusOK && st != http.StatusConflict {
			t.Errorf("update %d: status %d, want 200 or 409", i, st)
		}
	}
	for range DefaultRatePerMinute {
		resp, body := e.as(a, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusNotFound)
	}
	resp, body := e.as(a, http.MethodGet, "/v1/job/none", "")
	want(t, resp, body, http.StatusTooManyRequests, codeRateLimited)
}

// TestDeliveryLimit: the delivery limit applies per operation when set and
// not at all with NoRateLimit; either way the planning limit is apart.
func TestDeliveryLimit(t *testing.T) {
	t.Run("set", func(t *testing.T) {
		e := newEnv(t, envOptions{ratePerMinute: 1, deliveryRatePerMinute: 3})
		a := e.newTenant("Acme")
		for range 3 {
			resp, body := e.as(a, http.MethodGet, "/deliveries/none", "")
			want(t, resp, body, http.StatusNotFound)
		}
		resp, body := e.as(a, http.MethodGet, "/deliveries/none", "")
		want(t, resp, body, http.StatusTooManyRequests, codeRateLimited)
		if resp.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
		// Another delivery operation has its own count.
		resp, body = e.as(a, http.MethodPut, "/deliveries/none/cancel", "")
		want(t, resp, body, http.StatusNotFound)
		resp, body = e.as(a, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusNotFound)
		resp, body = e.as(a, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusTooManyRequests, codeRateLimited)
	})
	t.Run("none", func(t *testing.T) {
		e := newEnv(t, envOptions{ratePerMinute: 1, deliveryRatePerMinute: NoRateLimit})
		a := e.newTenant("Acme")
		for range 50 {
			resp, body := e.as(a, http.MethodGet, "/deliveries/none", "")
			want(t, resp, body, http.StatusNotFound)
		}
		resp, body := e.as(a, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusNotFound)
		resp, body = e.as(a, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusTooManyRequests, codeRateLimited)
	})
}
