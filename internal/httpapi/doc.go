// Package httpapi holds what every HTTP surface shares: the error object
// (R7.1-shape) and the one mapping from error codes to statuses, request ids,
// access logs, metrics, panic recovery, body limits and health endpoints.
package httpapi
