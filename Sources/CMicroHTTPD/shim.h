#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift does not import: these two take what
   photobook passes them as plain arguments (the options as one MHD_OPTION_ARRAY). */
static inline struct MHD_Daemon *pb_mhd_start(unsigned int flags, MHD_AccessHandlerCallback handler,
                                              void *handler_context, const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The port the daemon is bound to (MHD_DAEMON_INFO_BIND_PORT), 0 when it cannot say. */
static inline uint16_t pb_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
