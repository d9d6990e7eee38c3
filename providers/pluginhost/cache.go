package pluginhost

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/newstack-cloud/bluelink/libs/plugin-framework/plugin"
)

// cacheFormat changes when the cached shape or the conversion does, so
// an older cache is never read as this one.
const cacheFormat = 1

// cacheEntry is one plugin version's answers.
type cacheEntry struct {
	Format    int               `json:"format"`
	Namespace string            `json:"namespace"`
	Provider  json.RawMessage   `json:"provider"`
	Schemas   map[string][]byte `json:"schemas"`
}

// cacheFile names the cache of a plugin: its ID, its version and its
// executable's size and modification time, so a reinstalled or rebuilt
// plugin is asked again.
func cacheFile(dir string, info *plugin.PluginPathInfo) string {
	if dir == "" {
		return ""
	}
	st, err := os.Stat(info.AbsolutePath)
	if err != nil {
		return ""
	}
	key := fmt.Sprintf("%d\x00%s\x00%s\x00%s\x00%d\x00%d", cacheFormat, info.ID, info.Version, info.AbsolutePath, st.Size(), st.ModTime().UnixNano())
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(dir, hex.EncodeToString(sum[:16])+".json")
}

func readCache(dir string, info *plugin.PluginPathInfo) *Plugin {
	f := cacheFile(dir, info)
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
	return &Plugin{ID: info.ID, Version: info.Version, Path: info.AbsolutePath, Namespace: e.Namespace,
		Provider: e.Provider, Schemas: e.Schemas, Cached: true}
}

func writeCache(dir string, info *plugin.PluginPathInfo, p *Plugin, log *slog.Logger) {
	f := cacheFile(dir, info)
	if f == "" {
		return
	}
	data, err := json.Marshal(cacheEntry{Format: cacheFormat, Namespace: p.Namespace, Provider: p.Provider, Schemas: p.Schemas})
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
		log.Warn("plugin host: caching a plugin's answers", "plugin", info.ID, "err", err)
	}
}
