// Package deploy holds no code: it is the home of Wyvern's deployment files
// (Prometheus configuration, Grafana provisioning and dashboard) used by
// docker-compose.yml at the repository root. Its tests check those files and
// the compose file: that docker-compose.yml is valid per the Compose
// specification, that every metric the dashboard queries exists on a live
// /metrics endpoint, and that the Prometheus configuration is valid.
package deploy
