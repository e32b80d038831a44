// Package promapi reads values back from a Prometheus server's HTTP API
// (for the tests that run a real Prometheus against Wyvern's metrics).
package promapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// Query returns the single value of the instant query q on the Prometheus
// server at base (e.g. http://127.0.0.1:9090).
func Query(base, q string) (float64, error) {
	resp, err := http.Get(base + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var r struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []struct {
				Value [2]any `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return 0, fmt.Errorf("decode query response: %w", err)
	}
	if r.Status != "success" {
		return 0, fmt.Errorf("query %s: %s", q, r.Error)
	}
	if len(r.Data.Result) != 1 {
		return 0, fmt.Errorf("query %s: %d series", q, len(r.Data.Result))
	}
	s, ok := r.Data.Result[0].Value[1].(string)
	if !ok {
		return 0, fmt.Errorf("query %s: value %v", q, r.Data.Result[0].Value)
	}
	return strconv.ParseFloat(s, 64)
}
