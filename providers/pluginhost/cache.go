package pluginhost

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
)

// cacheFormat changes when the cached shape or the conversion does, so
// an older cache is never read as this one.
const cacheFormat = 3 // 2: links carry cardinality and capabilities, fields their flags; 3: functions and transformers too

// cacheEntry is one plugin version's answers.
type cacheEntry struct {
	Format    int                        `json:"format"`
	Namespace string                     `json:"namespace"`
	Provider  json.RawMessage            `json:"provider"`
	Schemas   map[string]json.RawMessage `json:"schemas"`
	Transform string                     `json:"transform,omitempty"`
}

// cacheFile names the cache of a plugin: its ID, its version and its
// executable's size and modification time, so a reinstalled or rebuilt
// plugin is asked again.
func cacheFile(dir string, t Target) string {
	if dir == "" {
		return ""
	}
	st, err := os.Stat(t.Path)
	if err != nil {
		return ""
	}
	key := fmt.Sprintf("%d\x00%s\x00%s\x00%s\x00%s\x00%d\x00%d", cacheFormat, t.Kind, t.ID, t.Version, t.Path, st.Size(), st.ModTime().UnixNano())
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(dir, hex.EncodeToString(sum[:16])+".json")
}

func readCache(dir string, t Target) *Plugin {
	f := cacheFile(dir, t)
	if f == "" {
		return nil
	}
	data, err := os.ReadFile(f)
	if err != nil {
		return nil
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil || e.Format != cacheFormat || len(e.Provider) == 0 {
		return nil
	}
	return &Plugin{Described: Described{Target: t, Namespace: e.Namespace, Provider: e.Provider, Schemas: e.Schemas, Transform: e.Transform}, Cached: true}
}

func writeCache(dir string, t Target, p *Plugin, log *slog.Logger) {
	f := cacheFile(dir, t)
	if f == "" {
		return
	}
	data, err := json.Marshal(cacheEntry{Format: cacheFormat, Namespace: p.Namespace, Provider: p.Provider, Schemas: p.Schemas, Transform: p.Transform})
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		// Write then rename, so a reader never sees half a file.
		tmp := f + ".tmp" + fmt.Sprint(os.Getpid())
		if err = os.WriteFile(tmp, data, 0o644); err == nil {
			err = os.Rename(tmp, f)
		}
	}
	if err != nil {
		log.Warn("plugin host: caching a plugin's answers", "plugin", t.ID, "err", err)
	}
}
