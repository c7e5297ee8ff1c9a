// Package store keeps sessions in memory with expiry.
package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrNotFound is returned for an unknown or expired session.
var ErrNotFound = errors.New("session not found")

// Session is one user's session.
type Session struct {
	ID      string
	User    string
	Expires time.Time
}

// Store holds sessions.
type Store struct {
	mu       sync.Mutex
	sessions map[string]*Session
	ttl      time.Duration
	now      func() time.Time
}

// New returns an empty store whose sessions live for ttl.
func New(ttl time.Duration) *Store {
	return &Store{sessions: map[string]*Session{}, ttl: ttl, now: time.Now}
}

// Put adds or renews a session.
func (s *Store) Put(id, user string) *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := &Session{ID: id, User: user, Expires: s.now().Add(s.ttl)}
	s.sessions[id] = sess
	return sess
}

// Get returns a live session.
func (s *Store) Get(id string) (*Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok {
		return nil, ErrNotFound
	}
	if s.now().After(sess.Expires) {
		delete(s.sessions, id)
		return nil, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	return sess, nil
}

// Sweep drops expired sessions until ctx is done.
func (s *Store) Sweep(ctx context.Context, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			s.sweepOnce()
		}
	}
}

func (s *Store) sweepOnce() {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for id, sess := range s.sessions {
		if now.After(sess.Expires) {
			delete(s.sessions, id)
		}
	}
}

// Users lists the users with a live session, in no order.
func (s *Store) Users() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	seen := make(map[string]bool, len(s.sessions))
	for _, sess := range s.sessions {
		if !seen[sess.User] {
			seen[sess.User] = true
			out = append(out, sess.User)
		}
	}
	return out
}
