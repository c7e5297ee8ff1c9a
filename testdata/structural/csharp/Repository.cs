// A small repository of users, with the null checks real C# has.
using System;
using System.Collections.Generic;

namespace Shop.Data
{
    public class User
    {
        public string Name { get; set; }
        public string Email { get; set; }
    }

    public class Repository
    {
        private readonly Dictionary<string, User> users = new Dictionary<string, User>();

        public void Add(User user)
        {
            if (user == null)
            {
                throw new ArgumentNullException(nameof(user));
            }
            if (user.Name == null) { user.Name = "anonymous"; }
            users[user.Name] = user;
        }

        public User Find(string name)
        {
            if (name == null)
            {
                return null;
            }
            users.TryGetValue(name, out var user);
            return user;
        }

        public string EmailOf(string name)
        {
            var user = Find(name);
            if (user == null)
            {
                Console.WriteLine("no user " + name);
                return "";
            }
            else
            {
                return user.Email ?? "";
            }
        }

        public int Count(Func<User, bool> keep)
        {
            if (keep == null) { return users.Count; }
            var n = 0;
            foreach (var u in users.Values)
            {
                if (keep(u)) { n++; }
            }
            return n;
        }
    }
}
