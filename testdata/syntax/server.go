// Package server is a small HTTP front end used as a syntax fixture.
package server

import (
	"errors"
	"net/http"
	"sync"
)

// Limits for a request.
const (
	// MaxBody is the largest request body accepted.
	MaxBody     = 1 << 20
	MaxHeaders  = 64
	defaultName = "srv"
)

// ErrClosed is returned after Close.
var ErrClosed = errors.New("server: closed")

var (
	mu      sync.Mutex
	counter int
)

// Handler serves one route.
type Handler interface {
	// Serve handles a request.
	Serve(w http.ResponseWriter, r *http.Request) error
	Name() string
}

// Server holds routes.
type Server struct {
	routes map[string]Handler
	closed bool
}

type (
	// Pair is a generic pair.
	Pair[K comparable, V any] struct {
		Key K
		Val V
	}
	ID int64
)

// New returns an empty Server.
func New() *Server {
	return &Server{routes: map[string]Handler{}}
}

// Handle registers h under path.
//
// It replaces an existing handler.
func (s *Server) Handle(path string, h Handler) {
	mu.Lock()
	defer mu.Unlock()
	s.routes[path] = h
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, ok := s.routes[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if err := h.Serve(w, r); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// Map applies f to every element.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Close stops the server.
func (s *Server) Close() error {
	if s.closed {
		return ErrClosed
	}
	s.closed = true
	cleanup := func() {
		counter = 0
	}
	cleanup()
	return nil
}
