#include "bus.h"

static void bus_setup(struct bus *bus, const struct bus_config *cfg)
{
	bus->flags = cfg->flags;
	bus->timeout =
#ifdef CONFIG_SLOW_BUS
		cfg->timeout * 2;
#else
		cfg->timeout;
#endif
	bus->mode = MODE_READ |
#ifdef CONFIG_BUS_WRITE
		MODE_WRITE |
#endif
		MODE_IRQ;
	bus->irq = bus_irq(cfg,
#ifdef CONFIG_SHARED_IRQ
		IRQF_SHARED |
#endif
		0);
	if (cfg->name)
		bus->name =
#ifdef CONFIG_BUS_NAMES
			cfg->name;
#else
			"bus";
#endif
}
