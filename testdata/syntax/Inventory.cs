using System;
using System.Collections.Generic;

namespace Shop.Stock
{
    /// <summary>A stock keeping unit.</summary>
    public record Sku(string Code, int Units);

    public delegate void Changed(Sku sku);

    public enum Unit { Piece, Box }

    public interface IStore
    {
        Sku Find(string code);
        int Count { get; }
    }

    [Serializable]
    public class Inventory : IStore
    {
        public const int MaxItems = 1000;
        private readonly Dictionary<string, Sku> items = new();

        public event Changed OnChange;

        public Inventory() { }

        public int Count => items.Count;

        /// Finds an item by code.
        public Sku Find(string code)
        {
            return items.TryGetValue(code, out var s) ? s : null;
        }

        internal void Evict(string code) { items.Remove(code); }

        private static int Hash(string code)
        {
            int h = 0;
            foreach (var c in code)
                h = h * 31 + c;
            return h;
        }

        protected struct Slot
        {
            public int Index;
            public Slot(int i) { Index = i; }
        }
    }

    internal class Audit
    {
        public void Log() { }
    }
}
