// OpenCV's five modules the matching engine uses (core, imgproc, features2d, flann, calib3d),
// linked by this module map's `link` lines rather than pkg-config's list of about sixty
// libraries. OpenCV's headers are C++: CMatch includes them through the `opencv2` link beside
// this file (to /usr/include/opencv4/opencv2, Debian's libopencv-dev), and this C header holds
// nothing for Swift; TegulaMatch imports the module only so the link lines reach the binary.
#ifndef TEGULA_COPENCV_SHIM_H
#define TEGULA_COPENCV_SHIM_H
#endif
